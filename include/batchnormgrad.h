/*
 * batchnormgrad.h - backward pass of batch normalization for the FT78NE and
 * MT7004 DSP targets (see docs/api.md; the contract is SPEC.md).
 *
 * Each target is its own library: libbatchnormgrad_ft78ne exports the fp_*
 * entry points only (fp32 hardware), libbatchnormgrad_mt7004 exports fp_*,
 * hp_* and mp_*. Both export bng_status_string.
 */
#ifndef BATCHNORMGRAD_H
#define BATCHNORMGRAD_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * IEEE binary16. Where the compiler has _Float16 (g++ 12 on x86-64, gcc on
 * aarch64) it is used, so callers can do arithmetic on it; elsewhere (clang 14
 * on x86-64, g++ 12 on aarch64, which has it in C only) `half` is a 16-bit
 * storage type holding the binary16 bit pattern. Both have the same size and
 * alignment, and the API passes `half` only through pointers, so the ABI is
 * the same either way.
 */
#if defined(__cplusplus) && !defined(__clang__) && defined(__GNUC__) && __GNUC__ < 13 && \
    !defined(__x86_64__) && !defined(__i386__)
#define BNG_HALF_NO_CXX_FLOAT16 1 /* g++ < 13 has C++ _Float16 on x86 only */
#else
#define BNG_HALF_NO_CXX_FLOAT16 0
#endif
#if defined(__FLT16_MANT_DIG__) && !BNG_HALF_NO_CXX_FLOAT16 && !defined(BNG_HALF_IS_STORAGE)
/* __extension__: ISO C11 has no _Float16, and -Wpedantic callers must not pay for it. */
__extension__ typedef _Float16 half;
#define BNG_HALF_IS_FLOAT16 1
#else
typedef struct bng_half_bits {
  unsigned short bits;
} half;
#define BNG_HALF_IS_FLOAT16 0
#endif

#if defined(BNG_BUILDING_LIBRARY)
#define BNG_API __attribute__((visibility("default")))
#else
#define BNG_API
#endif

/* Status codes (values are ABI). When several apply, any one may be returned.
 * On any error no output byte has been written. */
#define BNG_OK 0
#define BNG_ERR_NULL (-1)      /* params, x, dy, dx or a statistics/gradient pointer is null */
#define BNG_ERR_SHAPE (-2)     /* batch < 1, channel < 1, or a size overflows */
#define BNG_ERR_FLAG (-3)      /* is_train is not 0 or 1 */
#define BNG_ERR_CORE_MASK (-4) /* _s only: no bit set, or a bit at or above the core count (8) */
#define BNG_ERR_OVERLAP (-5)   /* an output overlaps an input or another output (dx == x and
                                  dx == dy, same start and length, are allowed) */
#define BNG_ERR_ALIGN (-6)     /* a pointer is not aligned to its element type */

/* Slots of the packed parameter array (slots 8..11 are reserved, never read). */
#define BNG_PARAM_MEAN 0
#define BNG_PARAM_INVAR 1
#define BNG_PARAM_SCALE 2
#define BNG_PARAM_DBIAS 3
#define BNG_PARAM_DSCALE 4
#define BNG_PARAM_BATCH 5
#define BNG_PARAM_CHANNEL 6
#define BNG_PARAM_IS_TRAIN 7
#define BNG_PARAM_COUNT 12

/* Number of cores of either target: valid core masks use bits 0..7. */
#define BNG_CORE_COUNT 8

/* One-line English message for a status code ("unknown status" otherwise). */
BNG_API const char *bng_status_string(int status);

/* ---- fp32: both targets -------------------------------------------------- */

/* The seed interface: params[0..4] are float pointers (mean, invar, scale,
 * dbias, dscale), params[5..7] are batch, channel, is_train. */
BNG_API int fp_batch_norm_grad_s(const float *x, const float *dy, float *dx,
                                 const long long *params, int core_mask);
BNG_API int fp_batch_norm_grad_p(const float *x, const float *dy, float *dx,
                                 const long long *params);

/* The vendor's flat interface, same semantics. */
BNG_API int fp_batchnormgrad_s(const float *x, const float *dy, const float *mean,
                               const float *invar, const float *scale, int batch, int channel,
                               int is_train, float *dx, float *dbias, float *dscale,
                               int core_mask);
BNG_API int fp_batchnormgrad_p(const float *x, const float *dy, const float *mean,
                               const float *invar, const float *scale, int batch, int channel,
                               int is_train, float *dx, float *dbias, float *dscale);

/* ---- fp16 and mixed precision: MT7004 only -------------------------------- */

/* Everything binary16, statistics and parameter gradients included. */
BNG_API int hp_batch_norm_grad_s(const half *x, const half *dy, half *dx,
                                 const long long *params, int core_mask);
BNG_API int hp_batch_norm_grad_p(const half *x, const half *dy, half *dx,
                                 const long long *params);
BNG_API int hp_batchnormgrad_s(const half *x, const half *dy, const half *mean,
                               const half *invar, const half *scale, int batch, int channel,
                               int is_train, half *dx, half *dbias, half *dscale,
                               int core_mask);
BNG_API int hp_batchnormgrad_p(const half *x, const half *dy, const half *mean,
                               const half *invar, const half *scale, int batch, int channel,
                               int is_train, half *dx, half *dbias, half *dscale);

/* Mixed precision (ours): x, dy, dx binary16; params[0..4] are float pointers. */
BNG_API int mp_batch_norm_grad_s(const half *x, const half *dy, half *dx,
                                 const long long *params, int core_mask);
BNG_API int mp_batch_norm_grad_p(const half *x, const half *dy, half *dx,
                                 const long long *params);

#ifdef __cplusplus
}
#endif

#endif /* BATCHNORMGRAD_H */
