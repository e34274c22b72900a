#include "check.h"

int main(void) {
  float x[2] = {1, 3}, dy[2] = {1, 2}, dx[2];
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
  if (!check_status("fp_batch_norm_grad_s", fp_batch_norm_grad_s(x, dy, dx, params, 0x3))) return 1;
  double d[2] = {dx[0], dx[1]};
  if (!check_outputs("ft78ne static fp_batch_norm_grad_s", d, dbias, dscale)) return 1;
  /* A rejected call: its status and message reach the caller. */
  if (fp_batch_norm_grad_s(x, dy, dx, params, 0) != BNG_ERR_CORE_MASK) return 1;
  printf("core mask 0: %s\n", bng_status_string(BNG_ERR_CORE_MASK));
  return 0;
}
