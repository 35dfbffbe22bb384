// corank: the command-line tool.
#include "cli/commands.hpp"

int main(int argc, char** argv) { return corank::cli::run(argc, argv); }
