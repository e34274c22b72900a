/* The consumer's checks: one small training call with exact values.
 * x = {1, 3}, dy = {1, 2} (batch 2, channel 1), mean 0, invar 0.5, scale 1:
 * xhat = {0.5, 1.5}, dbias = 3, dscale = 3.5,
 * dx = 0.25 * (2*dy - 3 - 3.5*xhat) = {-0.6875, -1.0625}.
 * This proves the package links and runs; tests/kernels judge accuracy, so
 * the comparison allows the contract's 1 ulp in binary16 (2^-10 relative). */
#ifndef BNG_CONSUMER_CHECK_H
#define BNG_CONSUMER_CHECK_H

#include <batchnormgrad.h>
#include <math.h>
#include <stdio.h>

static const double kDx[2] = {-0.6875, -1.0625};
static const double kDbias = 3.0, kDscale = 3.5;

static int close_to(const char *what, double got, double want) {
  if (fabs(got - want) <= fabs(want) * 0x1p-10) return 1;
  fprintf(stderr, "%s = %a, expected %a\n", what, got, want);
  return 0;
}

static int check_status(const char *call, int status) {
  if (status == BNG_OK) return 1;
  fprintf(stderr, "%s: %s (%d)\n", call, bng_status_string(status), status);
  return 0;
}

static int check_outputs(const char *call, const double dx[2], double dbias, double dscale) {
  int ok = close_to("dx[0]", dx[0], kDx[0]) & close_to("dx[1]", dx[1], kDx[1]) &
           close_to("dbias", dbias, kDbias) & close_to("dscale", dscale, kDscale);
  printf("%s: %s\n", call, ok ? "ok" : "WRONG");
  return ok;
}

#endif
