// Exact divisor search on u64 (Miller–Rabin + Pollard's rho), used by split_at's minimal aligned
// period (docs/mapping.md §5 C4): the period must be found for any valid sizes, up to the u64
// limit, without a search bounded by the magnitude of the numbers.
#include "ir/mapping/factor_detail.h"

#include <algorithm>

namespace tujit::ir::detail {

namespace {

__extension__ typedef unsigned __int128 U128;

std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b, std::uint64_t m) {
  return static_cast<std::uint64_t>(static_cast<U128>(a) * b % m);
}

std::uint64_t pow_mod(std::uint64_t b, std::uint64_t e, std::uint64_t m) {
  std::uint64_t r = 1 % m;
  b %= m;
  while (e) {
    if (e & 1) r = mul_mod(r, b, m);
    b = mul_mod(b, b, m);
    e >>= 1;
  }
  return r;
}

// Deterministic for every 64-bit n with these bases.
bool is_prime(std::uint64_t n) {
  if (n < 2) return false;
  for (std::uint64_t p :
       {2ULL, 3ULL, 5ULL, 7ULL, 11ULL, 13ULL, 17ULL, 19ULL, 23ULL, 29ULL, 31ULL, 37ULL}) {
    if (n % p == 0) return n == p;
  }
  std::uint64_t d = n - 1;
  int s = 0;
  while ((d & 1) == 0) {
    d >>= 1;
    ++s;
  }
  for (std::uint64_t a :
       {2ULL, 3ULL, 5ULL, 7ULL, 11ULL, 13ULL, 17ULL, 19ULL, 23ULL, 29ULL, 31ULL, 37ULL}) {
    std::uint64_t x = pow_mod(a, d, n);
    if (x == 1 || x == n - 1) continue;
    bool composite = true;
    for (int r = 1; r < s; ++r) {
      x = mul_mod(x, x, n);
      if (x == n - 1) {
        composite = false;
        break;
      }
    }
    if (composite) return false;
  }
  return true;
}

// A nontrivial factor of the odd composite n (Brent's variant). Each attempt is bounded; the
// constant c changes between attempts. Trial division is the (never expected) last resort.
std::uint64_t find_factor(std::uint64_t n) {
  for (std::uint64_t c = 1; c < 64; ++c) {
    std::uint64_t x = 2, y = 2, d = 1;
    auto f = [&](std::uint64_t v) { return (mul_mod(v, v, n) + c) % n; };
    for (std::uint64_t steps = 0; d == 1 && steps < (1ULL << 22); ++steps) {
      x = f(x);
      y = f(f(y));
      d = std::gcd(x > y ? x - y : y - x, n);
    }
    if (d != 1 && d != n) return d;
  }
  note_internal_error();
  for (std::uint64_t p = 3; p <= n / p; p += 2)
    if (n % p == 0) return p;
  return n;
}

void factor_into(std::uint64_t n, std::vector<std::uint64_t>& primes) {
  if (n == 1) return;
  for (std::uint64_t p : {2ULL, 3ULL, 5ULL, 7ULL, 11ULL, 13ULL}) {
    while (n % p == 0) {
      primes.push_back(p);
      n /= p;
    }
  }
  if (n == 1) return;
  if (is_prime(n)) {
    primes.push_back(n);
    return;
  }
  std::uint64_t d = find_factor(n);
  if (d == n) {
    primes.push_back(n);
    return;
  }
  factor_into(d, primes);
  factor_into(n / d, primes);
}

} // namespace

std::optional<std::uint64_t> smallest_divisor_at_least(std::uint64_t m, std::uint64_t lower) {
  if (m == 0 || lower > m) return std::nullopt;
  if (lower <= 1) return 1;
  std::vector<std::uint64_t> primes;
  factor_into(m, primes);
  std::sort(primes.begin(), primes.end());
  std::vector<std::uint64_t> divisors{1};
  for (std::size_t i = 0; i < primes.size();) {
    std::size_t j = i;
    while (j < primes.size() && primes[j] == primes[i]) ++j;
    const std::size_t existing = divisors.size();
    std::uint64_t power = 1;
    for (std::size_t e = i; e < j; ++e) {
      power *= primes[i];
      for (std::size_t k = 0; k < existing; ++k) divisors.push_back(divisors[k] * power);
    }
    i = j;
  }
  std::uint64_t best = m;
  for (std::uint64_t d : divisors)
    if (d >= lower && d < best) best = d;
  return best;
}

} // namespace tujit::ir::detail
