/*
 * The vendor page's FT78NE shared-storage (_s) example, adapted to the
 * library as specified (docs/api.md, "Deviations from the vendor page"):
 *   - the tensors are heap buffers, not fixed DSP addresses;
 *   - params is passed to fp_batch_norm_grad_s (the printed prototype had no
 *     way to receive it);
 *   - the returned status is checked.
 * Inputs come from a forward pass computed here, so the numbers mean something.
 */
#include <batchnormgrad.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int batch = 4;
  int channel = 64;
  int is_train = 1;
  int core_mask = 0xff; /* all eight cores */

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

  /* Element (b, c) is at b*channel + c: channel fastest. */
  for (int b = 0; b < batch; ++b) {
    for (int c = 0; c < channel; ++c) {
      x[b * channel + c] = (float)((b * 7 + c * 3) % 11) * 0.25f - 1.0f;
      dy[b * channel + c] = (float)((b * 5 + c) % 9 - 4) * 0.125f;
    }
  }
  /* What the forward pass saved: batch mean and 1/sqrt(variance + eps). */
  const float eps = 1e-5f;
  for (int c = 0; c < channel; ++c) {
    float sum = 0.0f, sq = 0.0f;
    for (int b = 0; b < batch; ++b) sum += x[b * channel + c];
    mean[c] = sum / (float)batch;
    for (int b = 0; b < batch; ++b) {
      float d = x[b * channel + c] - mean[c];
      sq += d * d;
    }
    invar[c] = 1.0f / sqrtf(sq / (float)batch + eps);
    scale[c] = 1.0f + 0.01f * (float)c;
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
  int status = fp_batch_norm_grad_s(x, dy, dx, params, core_mask);
  if (status != BNG_OK) {
    fprintf(stderr, "fp_batch_norm_grad_s: %s (%d)\n", bng_status_string(status), status);
    return 1;
  }

  /* With the true batch mean, sum over the batch of dx is zero (up to rounding). */
  double column = 0.0, magnitude = 0.0;
  for (int b = 0; b < batch; ++b) {
    column += dx[b * channel];
    magnitude += fabs(dx[b * channel]);
  }
  printf("channel 0: dbias = %g, dscale = %g, sum of dx = %.3g (sum of |dx| = %.3g)\n", dbias[0],
         dscale[0], column, magnitude);

  free(x), free(dy), free(mean), free(invar), free(scale), free(dx), free(dbias), free(dscale);
  return 0;
}
