/*
 * An attacker at the worst moment, for the confinement test
 * (harness_confinement_test.cpp): included into tools/harness/bng_harness.c
 * through -DBNG_HARNESS_HOOKS, it runs after each call, when the harness has
 * already removed the case's old outputs and is about to write the new ones,
 * and plants in the folder BNG_TEST_PLANT_DIR the symbolic links dx.npy,
 * dbias.npy, dscale.npy and status.json, each to the file
 * BNG_TEST_PLANT_TARGET. A harness that opens its outputs by name writes
 * through them. Needs POSIX (symlink): the test's CMake target defines
 * _POSIX_C_SOURCE. Production builds of the harness never include it.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void plant_output_links(void) {
  static const char* const names[] = {"dx.npy", "dbias.npy", "dscale.npy", "status.json"};
  const char* dir = getenv("BNG_TEST_PLANT_DIR");
  const char* target = getenv("BNG_TEST_PLANT_TARGET");
  char link[4096];
  size_t i, n;
  if (!dir || !target) return;
  n = strlen(dir);
  for (i = 0; i < sizeof names / sizeof names[0]; ++i) {
    if (n + 1 + strlen(names[i]) + 1 > sizeof link) return;
    memcpy(link, dir, n);
    link[n] = '/';
    memcpy(link + n + 1, names[i], strlen(names[i]) + 1);
    if (symlink(target, link) != 0) {
      continue; /* the name exists (planted at an earlier call): leave it */
    }
  }
}

#define BNG_HARNESS_AFTER_CALL(call) ((void)(call), plant_output_links())
