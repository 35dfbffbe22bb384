// Merge two sorted vectors on all cores with corank.
#include <algorithm>
#include <corank/corank.hpp>
#include <cstdio>
#include <vector>

int main() {
  std::vector<int> a{1, 3, 5, 7}, b{2, 3, 4, 8, 9}, out(a.size() + b.size());
  corank::cpu::merge(a.begin(), a.end(), b.begin(), b.end(), out.begin());
  for (int x : out) std::printf("%d ", x);
  std::printf("\n");
  return std::is_sorted(out.begin(), out.end()) ? 0 : 1;
}
