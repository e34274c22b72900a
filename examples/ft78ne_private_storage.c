/*
 * The vendor page's FT78NE private-storage (_p) example, adapted to the
 * library as specified (docs/api.md): heap buffers instead of fixed
 * addresses in the core's L2 space, and the returned status checked. _p runs
 * on the calling core alone, so it takes no core mask.
 */
#include <batchnormgrad.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int batch = 4;
  int channel = 32;
  int is_train = 1;

  size_t n = (size_t)batch * (size_t)channel;
  float* x = malloc(n * sizeof *x);                 /* forward input x */
  float* dy = malloc(n * sizeof *dy);               /* upstream gradient dy */
  float* mean = malloc(channel * sizeof *mean);     /* forward mean */
  float* invar = malloc(channel * sizeof *invar);   /* forward inverse std. deviation */
  float* scale = malloc(channel * sizeof *scale);   /* forward scale (gamma) */
  float* dx = malloc(n * sizeof *dx);               /* output gradient dx */
  float* dbias = malloc(channel * sizeof *dbias);   /* output gradient dbias */
  float* dscale = malloc(channel * sizeof *dscale); /* output gradient dscale */
  if (!x || !dy || !mean || !invar || !scale || !dx || !dbias || !dscale) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  for (size_t i = 0; i < n; ++i) {
    x[i] = (float)(i % 13) * 0.5f - 3.0f;
    dy[i] = (float)(i % 5) * 0.25f - 0.5f;
  }
  for (int c = 0; c < channel; ++c) {
    mean[c] = -0.25f * (float)(c % 3);
    invar[c] = 0.5f;
    scale[c] = 2.0f;
  }

  long long params[12]; /* slots 8..11 are reserved and never read */
  params[0] = (long long)mean;
  params[1] = (long long)invar;
  params[2] = (long long)scale;
  params[3] = (long long)dbias;
  params[4] = (long long)dscale;
  params[5] = (long long)batch;
  params[6] = (long long)channel;
  params[7] = (long long)is_train;

  int status = fp_batch_norm_grad_p(x, dy, dx, params);
  if (status != BNG_OK) {
    fprintf(stderr, "fp_batch_norm_grad_p: %s (%d)\n", bng_status_string(status), status);
    return 1;
  }
  printf("dx[0] = %g, dbias[0] = %g, dscale[0] = %g\n", dx[0], dbias[0], dscale[0]);

  /* The same call through the vendor's flat interface gives the same bits. */
  float* dx2 = malloc(n * sizeof *dx2);
  float* dbias2 = malloc(channel * sizeof *dbias2);
  float* dscale2 = malloc(channel * sizeof *dscale2);
  if (!dx2 || !dbias2 || !dscale2) return 1;
  status =
      fp_batchnormgrad_p(x, dy, mean, invar, scale, batch, channel, is_train, dx2, dbias2, dscale2);
  if (status != BNG_OK) {
    fprintf(stderr, "fp_batchnormgrad_p: %s (%d)\n", bng_status_string(status), status);
    return 1;
  }
  printf("flat form: dx[0] = %g, dbias[0] = %g, dscale[0] = %g\n", dx2[0], dbias2[0], dscale2[0]);

  free(x), free(dy), free(mean), free(invar), free(scale), free(dx), free(dbias), free(dscale);
  free(dx2), free(dbias2), free(dscale2);
  return 0;
}
