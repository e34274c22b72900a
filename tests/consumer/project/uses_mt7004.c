#include <string.h>

#include "check.h"

/* `half` is _Float16 or a 16-bit struct depending on the compiler: go
 * through the bits, which mean the same either way. */
static half from_bits(unsigned short bits) {
  half h;
  memcpy(&h, &bits, sizeof h);
  return h;
}
static double to_double(half h) {
  unsigned short b;
  memcpy(&b, &h, sizeof b);
  int e = (b >> 10) & 0x1f, m = b & 0x3ff;
  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
  return (b & 0x8000) ? -v : v;
}

int main(void) {
  int ok = 1;
  {
    float x[2] = {1, 3}, dy[2] = {1, 2}, dx[2];
    float mean = 0, invar = 0.5f, scale = 1, dbias, dscale;
    ok &= check_status("fp_batchnormgrad_s", fp_batchnormgrad_s(x, dy, &mean, &invar, &scale, 2, 1,
                                                                1, dx, &dbias, &dscale, 0xff));
    double d[2] = {dx[0], dx[1]};
    ok = ok && check_outputs("mt7004 fp_batchnormgrad_s", d, dbias, dscale);
  }
  {
    /* 1.0 = 0x3c00, 3.0 = 0x4200, 2.0 = 0x4000, 0.5 = 0x3800 */
    half x[2] = {from_bits(0x3c00), from_bits(0x4200)}, dy[2] = {from_bits(0x3c00), from_bits(0x4000)};
    half dx[2];
    float mean = 0, invar = 0.5f, scale = 1, dbias, dscale;
    long long params[12];
    params[BNG_PARAM_MEAN] = (long long)&mean;
    params[BNG_PARAM_INVAR] = (long long)&invar;
    params[BNG_PARAM_SCALE] = (long long)&scale;
    params[BNG_PARAM_DBIAS] = (long long)&dbias;
    params[BNG_PARAM_DSCALE] = (long long)&dscale;
    params[BNG_PARAM_BATCH] = 2;
    params[BNG_PARAM_CHANNEL] = 1;
    params[BNG_PARAM_IS_TRAIN] = 1;
    ok = ok && check_status("mp_batch_norm_grad_p", mp_batch_norm_grad_p(x, dy, dx, params));
    double d[2] = {to_double(dx[0]), to_double(dx[1])};
    ok = ok && check_outputs("mt7004 mp_batch_norm_grad_p", d, dbias, dscale);

    half hmean = from_bits(0), hinvar = from_bits(0x3800), hscale = from_bits(0x3c00), hdbias, hdscale;
    ok = ok && check_status("hp_batchnormgrad_p",
                            hp_batchnormgrad_p(x, dy, &hmean, &hinvar, &hscale, 2, 1, 1, dx,
                                               &hdbias, &hdscale));
    double h[2] = {to_double(dx[0]), to_double(dx[1])};
    ok = ok && check_outputs("mt7004 hp_batchnormgrad_p", h, to_double(hdbias), to_double(hdscale));
  }
  return ok ? 0 : 1;
}
