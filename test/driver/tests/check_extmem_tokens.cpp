// check_extmem_tokens.cpp - every token of tests/external-memory-semaphore.tokens.tsv
// (a copy of shared/specs/external-memory-semaphore.tokens.tsv, from the Khronos
// headers) is declared in cl_decls.h with that value. Compile-time: a missing or
// wrong token fails the build of this test.
#include <cstdio>

#include "cl_decls.h"

#define T(name, value) static_assert((long long)(name) == (long long)(value), "token value differs from the table: " #name);
#include "refdrv_extmem_tokens.h"
#undef T

int main() {
  int n = 0;
#define T(name, value) n++;
#include "refdrv_extmem_tokens.h"
#undef T
  std::printf("%d external memory / semaphore tokens match the table\n", n);
  return n == 44 ? 0 : 1;
}
