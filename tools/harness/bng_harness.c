/*
 * bng_harness: runs the cases of a bngcert pack through one BatchNormGrad
 * library on the device and writes what it returned beside each case's
 * inputs, for `bngcert check --pack` to judge (docs/certification.md §8).
 *
 *   bng_harness PACK_OR_CASE_DIR...
 *
 * A pack directory has cases.txt (one case folder per line); a case folder has
 * params.json and x.npy, dy.npy, mean.npy, invar.npy, scale.npy. For each case
 * of this harness's target the named entry point is called once, then
 *   status.json                    {"status": N, "message": "...", ...}
 *   dx.npy dbias.npy dscale.npy    the outputs (only when status is 0)
 * are written into the case folder. A nonzero status is recorded, not fatal;
 * a case whose files cannot be read gets a status.json with "harness_error"
 * and the run goes on. Cases of the other target are left untouched.
 *
 * Portable C99: the public header and the C library, plus a few POSIX calls
 * where there is POSIX, for the confinement below (no directory listing:
 * cases.txt names the folders), so it cross-compiles with a DSP vendor's
 * toolchain. Build it once per target library:
 *   -DBNG_TARGET_NAME='"mt7004"'  the target, as the registry names it
 *   -DBNG_TARGET_HAS_FP=1 -DBNG_TARGET_HAS_HP=1 -DBNG_TARGET_HAS_MP=1
 *                                which kernels the target has (1) or not (0):
 *                                the harness calls only those entry points
 * (tools/harness/CMakeLists.txt passes all four from the target registry,
 * optimized/include/bng/optimized/targets.inc.)
 * Optional: -DBNG_HARNESS_HOOKS='"file.h"' includes a header that defines
 * BNG_HARNESS_AFTER_CALL(call), run after each call before the outputs are
 * written: where a board needs a cache write-back or a DMA of the outputs to
 * the file system's memory.
 *
 * Confinement: the harness reads and writes only inside the pack it is
 * given; the argument itself is the operator's and is trusted.
 * - A cases.txt line must be a relative path of plain names: letters, digits,
 *   '.', '_' and '-', separated by single '/'; not absolute, no '.', '..' or
 *   empty name, no backslash, at most LINE_CAP characters. Any other line is
 *   refused: named on stderr with its line number, counted as a case not run,
 *   and nothing is read, written or deleted for it.
 * - Where POSIX is available (BNG_HARNESS_POSIX: a __unix__ or __APPLE__
 *   compiler, unless -DBNG_HARNESS_NO_POSIX), no link is followed below the
 *   pack's root: a case folder, or a folder on the way to it (`cases`), that
 *   is a symbolic link is refused like a bad line. Inputs (cases.txt too) are
 *   read only when they are regular files, never through a link, opened
 *   without blocking: a FIFO or a device is refused at once (a case's
 *   harness_error), never waited on.
 *   Outputs go to a new temporary file in the case folder (O_CREAT|O_EXCL|
 *   O_NOFOLLOW) renamed over their final name: a link planted there is
 *   replaced, never written through.
 * - Without POSIX (-DBNG_HARNESS_NO_POSIX, or another system) the C library
 *   cannot tell a link or a FIFO from a file: only the checks of the lines
 *   apply, and outputs still go through a temporary name.
 *
 * Exit status: 0 every case of this target ran (whatever statuses they
 * returned), 1 some case could not be run or written (a refused line or case
 * folder included), 2 bad usage or a cases.txt that cannot be read.
 */
/* Decided before any header: _POSIX_C_SOURCE must precede them all so that
 * -std=c99 (no GNU extensions) still declares openat and its flags. */
#if (defined(__unix__) || defined(__APPLE__)) && !defined(BNG_HARNESS_NO_POSIX)
#define BNG_HARNESS_POSIX 1
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#else
#define BNG_HARNESS_POSIX 0
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if BNG_HARNESS_POSIX
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "batchnormgrad.h"

#if !defined(BNG_TARGET_NAME) || !defined(BNG_TARGET_HAS_FP) || !defined(BNG_TARGET_HAS_HP) || \
    !defined(BNG_TARGET_HAS_MP)
#error "define BNG_TARGET_NAME and BNG_TARGET_HAS_FP/HP/MP (see the top of this file)"
#endif
#define HARNESS_TARGET BNG_TARGET_NAME

/* What one call saw and returned: given to BNG_HARNESS_AFTER_CALL. */
struct bng_harness_call {
  const char* entry_point;
  long long batch, channel, is_train;
  int half_data;  /* x, dy, dx are binary16 (hp, mp) */
  int half_stats; /* mean .. dscale are binary16 (hp) */
  void *dx, *dbias, *dscale;
  int status;
};

#ifdef BNG_HARNESS_HOOKS
#include BNG_HARNESS_HOOKS
#endif
#ifndef BNG_HARNESS_AFTER_CALL
#define BNG_HARNESS_AFTER_CALL(call) ((void)(call))
#endif

#define PATH_CAP 4096
#define LINE_CAP 1024 /* the longest cases.txt line taken as a case folder (in its message too) */
#define MESSAGE_CAP 512
#define PARAMS_CAP 65536

/* ---- errors: one message per case, kept for status.json ------------------ */

static char g_error[MESSAGE_CAP];

/* "what: detail"; a long `what` (a path) keeps its end, where the file's name is. */
static int fail(const char* what, const char* detail) {
  const size_t n = strlen(what);
  if (n > 200) {
    snprintf(g_error, sizeof g_error, "...%s: %.250s", what + (n - 197), detail);
  } else { /* the whole of what: at most 200 bytes, which the precision says to GCC */
    snprintf(g_error, sizeof g_error, "%.200s: %.250s", what, detail);
  }
  return -1;
}

/* dir/name into out (PATH_CAP bytes), or -1 with g_error set. */
static int join(char* out, const char* dir, const char* name) {
  const size_t a = strlen(dir), b = strlen(name);
  if (a + 1 + b + 1 > PATH_CAP) return fail(dir, "path too long");
  memcpy(out, dir, a);
  out[a] = '/';
  memcpy(out + a + 1, name, b + 1);
  return 0;
}

/* ---- cases.txt: which lines name a case folder inside the pack ----------- */

/* Said with each refusal: whoever reads it has a cases.txt to fix. */
#define CASE_LINE_RULE                                                                     \
  " (case folders are relative paths inside the pack: names of letters, digits, '.', '_' " \
  "and '-' joined by '/')"

/* Why `line` (n characters, NUL bytes included) is not a relative path of
 * plain names inside the pack, or NULL when it is one. */
static const char* refuse_case_line(const char* line, size_t n) {
  static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-";
  size_t i, start = 0;
  if (n > LINE_CAP) return "longer than 1024 characters";
  if (line[0] == '/') return "an absolute path" CASE_LINE_RULE;
  for (i = 0; i <= n; ++i) {
    const char c = i < n ? line[i] : '/'; /* the end closes the last name */
    if (c == '/') {
      const size_t len = i - start;
      if (len == 0) return "an empty name ('//' or a '/' at the end)" CASE_LINE_RULE;
      if (line[start] == '.' && (len == 1 || (len == 2 && line[start + 1] == '.'))) {
        return "a '.' or '..' name" CASE_LINE_RULE;
      }
      start = i + 1;
    } else if (c == '\\') {
      return "a backslash" CASE_LINE_RULE;
    } else if (c == '\0' || !strchr(plain, c)) {
      return "another character" CASE_LINE_RULE;
    }
  }
  return NULL;
}

/* One line of f without its "\n" or "\r\n": its first LINE_CAP characters in
 * line (LINE_CAP + 1 bytes, NUL-terminated), its whole length in *n (longer
 * lines are consumed whole and refused by their length). 0 at the end. */
static int read_line(FILE* f, char* line, size_t* n) {
  size_t len = 0;
  int c, any = 0;
  while ((c = getc(f)) != EOF) {
    any = 1;
    if (c == '\n') break;
    if (len < LINE_CAP) line[len] = (char)c;
    if (len <= LINE_CAP) ++len; /* LINE_CAP + 1: too long, whatever follows */
  }
  if (len > 0 && len <= LINE_CAP && line[len - 1] == '\r') --len;
  line[len <= LINE_CAP ? len : LINE_CAP] = '\0';
  *n = len;
  return any;
}

/* A line as stderr may show it: printable ASCII, at most 80 characters. */
static void printable(char* out, const char* line, size_t n) {
  size_t i, m = n < 80 ? n : 80;
  for (i = 0; i < m; ++i) out[i] = line[i] >= 0x20 && line[i] < 0x7f ? line[i] : '?';
  out[m] = '\0';
}

/* ---- folders: where a case's files are read and written ------------------- */

/* A folder and its path (for messages). With POSIX its files are reached
 * through fd only, so nothing above it can be swapped for a link afterwards. */
struct folder {
  char path[PATH_CAP];
#if BNG_HARNESS_POSIX
  int fd;
#endif
};

#if BNG_HARNESS_POSIX

/* Says why dirfd/name could not be opened as wanted (a folder or a file). */
static int fail_open(const char* path, int err, int dirfd, const char* name, int want_folder) {
  struct stat st;
  if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
    if (S_ISLNK(st.st_mode)) {
      return fail(path, "a symbolic link (refused: nothing is followed out of the pack)");
    }
    if (want_folder && !S_ISDIR(st.st_mode)) return fail(path, "not a folder");
    if (!want_folder && !S_ISREG(st.st_mode)) {
      return fail(path, "not a regular file (a FIFO, device or folder is refused, never read)");
    }
  }
  return fail(path, strerror(err));
}

/* Folders are opened with O_NONBLOCK too: should a FIFO stand where a folder
 * is expected, the open must not wait for a writer before O_DIRECTORY refuses it. */

/* The folder the operator named: trusted, so a link there is followed. */
static int folder_open_given(struct folder* f, const char* path) {
  const size_t n = strlen(path);
  if (n + 1 > PATH_CAP) return fail(path, "path too long");
  memcpy(f->path, path, n + 1);
  f->fd = open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
  if (f->fd < 0) return fail(path, strerror(errno));
  return 0;
}

/* root/rel (rel checked by refuse_case_line), one name at a time, each a real
 * folder: a symbolic link anywhere below root is refused, never followed. */
static int folder_open_below(struct folder* f, const struct folder* root, const char* rel) {
  const size_t root_len = strlen(root->path);
  size_t start = 0, end;
  int fd = root->fd;
  if (join(f->path, root->path, rel) != 0) return -1;
  for (;;) {
    char name[LINE_CAP + 1];
    int next;
    for (end = start; rel[end] && rel[end] != '/'; ++end) {
    }
    memcpy(name, rel + start, end - start);
    name[end - start] = '\0';
    next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (next < 0) {
      const int err = errno;
      char at[PATH_CAP];
      memcpy(at, f->path, root_len + 1 + end); /* the path up to this name */
      at[root_len + 1 + end] = '\0';
      fail_open(at, err, fd, name, 1);
      if (fd != root->fd) close(fd);
      return -1;
    }
    if (fd != root->fd) close(fd);
    fd = next;
    if (!rel[end]) break;
    start = end + 1;
  }
  f->fd = fd;
  return 0;
}

static void folder_close(struct folder* f) {
  close(f->fd);
}

/* dir/name for reading if it is a regular file: opened without blocking (a
 * FIFO with no writer would wait forever) and checked before any read.
 * *absent (if given) tells a missing file from a refused one. */
static FILE* folder_read(const struct folder* dir, const char* name, int* absent) {
  char path[PATH_CAP];
  struct stat st;
  FILE* f;
  int fd, flags;
  if (join(path, dir->path, name) != 0) return NULL;
  fd = openat(dir->fd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    if (absent) *absent = err == ENOENT;
    fail_open(path, err, dir->fd, name, 0);
    return NULL;
  }
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    fail(path, "not a regular file (a FIFO, device or folder is refused, never read)");
    return NULL;
  }
  /* Plain blocking reads from here on, as a regular file has always had. */
  flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 || !(f = fdopen(fd, "rb"))) {
    fail(path, strerror(errno));
    close(fd);
    return NULL;
  }
  return f;
}

/* Outputs of an earlier run would be judged as this run's: remove them. A link
 * there is removed itself, never its target. */
static void folder_remove(const struct folder* dir, const char* name) {
  unlinkat(dir->fd, name, 0);
}

/* A new file `tmp` in dir for writing: never an existing file, never through a
 * link (a stale temporary of an interrupted run is removed first). */
static FILE* folder_create(const struct folder* dir, const char* tmp, const char* path) {
  FILE* f;
  int fd;
  unlinkat(dir->fd, tmp, 0);
  fd = openat(dir->fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) {
    fail(path, strerror(errno));
    return NULL;
  }
  if (!(f = fdopen(fd, "wb"))) {
    fail(path, strerror(errno));
    close(fd);
    unlinkat(dir->fd, tmp, 0);
  }
  return f;
}

/* Renames tmp over name: whatever name was (a planted link too) is replaced. */
static int folder_rename(const struct folder* dir, const char* tmp, const char* name,
                         const char* path) {
  if (renameat(dir->fd, tmp, dir->fd, name) == 0) return 0;
  fail(path, strerror(errno));
  unlinkat(dir->fd, tmp, 0);
  return -1;
}

#else /* ISO C only: paths, and what fopen makes of them */

static int folder_open_given(struct folder* f, const char* path) {
  const size_t n = strlen(path);
  if (n + 1 > PATH_CAP) return fail(path, "path too long");
  memcpy(f->path, path, n + 1);
  return 0;
}

static int folder_open_below(struct folder* f, const struct folder* root, const char* rel) {
  return join(f->path, root->path, rel);
}

static void folder_close(struct folder* f) {
  (void)f;
}

/* ISO C cannot tell a missing file from an unreadable one: both are absent. */
static FILE* folder_read(const struct folder* dir, const char* name, int* absent) {
  char path[PATH_CAP];
  FILE* f;
  if (join(path, dir->path, name) != 0) return NULL;
  f = fopen(path, "rb");
  if (!f) {
    if (absent) *absent = 1;
    fail(path, "cannot open (missing?)");
  }
  return f;
}

static void folder_remove(const struct folder* dir, const char* name) {
  char path[PATH_CAP];
  if (join(path, dir->path, name) == 0) remove(path);
}

static FILE* folder_create(const struct folder* dir, const char* tmp, const char* path) {
  char at[PATH_CAP];
  FILE* f;
  if (join(at, dir->path, tmp) != 0) return NULL;
  f = fopen(at, "wb");
  if (!f) fail(path, "cannot write");
  return f;
}

/* ISO C leaves rename onto an existing name to the implementation: remove it first. */
static int folder_rename(const struct folder* dir, const char* tmp, const char* name,
                         const char* path) {
  char from[PATH_CAP], to[PATH_CAP];
  if (join(from, dir->path, tmp) != 0 || join(to, dir->path, name) != 0) return -1;
  remove(to);
  if (rename(from, to) == 0) return 0;
  remove(from);
  return fail(path, "cannot rename its temporary file into place");
}

#endif

/* An output being written: its temporary file, then its final name (one of
 * the harness's own short names). */
struct output {
  FILE* f;
  char tmp[32], path[PATH_CAP];
  const char* name;
};

/* ".<name>.tmp" in dir, for writing; -1 with g_error set. */
static int output_begin(struct output* out, const struct folder* dir, const char* name) {
  const size_t n = strlen(name);
  out->name = name;
  if (join(out->path, dir->path, name) != 0) return -1;
  if (n + 6 > sizeof out->tmp) return fail(out->path, "name too long");
  out->tmp[0] = '.';
  memcpy(out->tmp + 1, name, n);
  memcpy(out->tmp + 1 + n, ".tmp", 5);
  out->f = folder_create(dir, out->tmp, out->path);
  return out->f ? 0 : -1;
}

/* Closes the file and, if every write succeeded (ok), gives it its final name;
 * else removes it. */
static int output_end(struct output* out, const struct folder* dir, int ok) {
  ok = !ferror(out->f) && ok;
  if (fclose(out->f) != 0) ok = 0;
  if (!ok) {
    folder_remove(dir, out->tmp);
    return fail(out->path, "write error");
  }
  return folder_rename(dir, out->tmp, out->name, out->path);
}

/* ---- params.json: a minimal JSON reader for one flat object -------------- */

struct params {
  char entry_point[64];
  char target[16];
  long long batch, channel, is_train, core_mask;
  int has_entry, has_target, has_batch, has_channel, has_is_train, has_core_mask;
};

static const char* skip_ws(const char* p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') ++p;
  return p;
}

/* A string at p (after its opening quote is checked); NULL if malformed.
 * Escapes other than \" and \\ are kept verbatim: no key or value we read has them. */
static const char* read_string(const char* p, char* out, size_t cap) {
  size_t n = 0;
  if (*p != '"') return NULL;
  for (++p; *p && *p != '"'; ++p) {
    if (*p == '\\') {
      ++p;
      if (!*p) return NULL;
    }
    if (n + 1 < cap) out[n++] = *p;
  }
  if (*p != '"') return NULL;
  out[n] = '\0';
  return p + 1;
}

/* Skips any JSON value (nested arrays and objects included); NULL if malformed. */
static const char* skip_value(const char* p, int depth) {
  char scratch[2];
  p = skip_ws(p);
  if (depth > 64) return NULL;
  if (*p == '"') return read_string(p, scratch, sizeof scratch);
  if (*p == '{' || *p == '[') {
    const char close = *p == '{' ? '}' : ']';
    p = skip_ws(p + 1);
    if (*p == close) return p + 1;
    for (;;) {
      if (close == '}') {
        p = read_string(skip_ws(p), scratch, sizeof scratch);
        if (!p) return NULL;
        p = skip_ws(p);
        if (*p != ':') return NULL;
        ++p;
      }
      p = skip_value(p, depth + 1);
      if (!p) return NULL;
      p = skip_ws(p);
      if (*p == close) return p + 1;
      if (*p != ',') return NULL;
      ++p;
    }
  }
  if (!*p) return NULL;
  while (*p && strchr("+-0123456789.eEtruefalsn", *p)) ++p;
  return p;
}

static const char* read_integer(const char* p, long long* out, int* has) {
  char* end = NULL;
  const long long v = strtoll(p, &end, 10);
  if (end == p || *end == '.' || *end == 'e' || *end == 'E') return NULL;
  *out = v;
  *has = 1;
  return end;
}

static int parse_params(const char* text, struct params* pr, const char* file) {
  const char* p = skip_ws(text);
  memset(pr, 0, sizeof *pr);
  if (*p != '{') return fail(file, "not a JSON object");
  p = skip_ws(p + 1);
  if (*p == '}') return fail(file, "empty object");
  for (;;) {
    char key[64];
    p = read_string(skip_ws(p), key, sizeof key);
    if (!p) return fail(file, "malformed JSON (a key)");
    p = skip_ws(p);
    if (*p != ':') return fail(file, "malformed JSON (expected ':')");
    p = skip_ws(p + 1);
    if (strcmp(key, "entry_point") == 0) {
      p = read_string(p, pr->entry_point, sizeof pr->entry_point);
      pr->has_entry = 1;
    } else if (strcmp(key, "target") == 0) {
      p = read_string(p, pr->target, sizeof pr->target);
      pr->has_target = 1;
    } else if (strcmp(key, "batch") == 0) {
      p = read_integer(p, &pr->batch, &pr->has_batch);
    } else if (strcmp(key, "channel") == 0) {
      p = read_integer(p, &pr->channel, &pr->has_channel);
    } else if (strcmp(key, "is_train") == 0) {
      p = read_integer(p, &pr->is_train, &pr->has_is_train);
    } else if (strcmp(key, "core_mask") == 0) {
      p = read_integer(p, &pr->core_mask, &pr->has_core_mask);
    } else {
      p = skip_value(p, 0);
    }
    if (!p) return fail(file, "malformed JSON (a value)");
    p = skip_ws(p);
    if (*p == '}') break;
    if (*p != ',') return fail(file, "malformed JSON (expected ',' or '}')");
    ++p;
  }
  if (!pr->has_entry || !pr->has_target || !pr->has_batch || !pr->has_channel ||
      !pr->has_is_train) {
    return fail(file, "needs entry_point, target, batch, channel and is_train");
  }
  return 0;
}

/* dir/name, whole, NUL-terminated into buf (cap bytes); path names it. */
static int read_text(const struct folder* dir, const char* name, const char* path, char* buf,
                     size_t cap) {
  FILE* f = folder_read(dir, name, NULL);
  size_t n;
  if (!f) return -1;
  n = fread(buf, 1, cap - 1, f);
  if (ferror(f)) {
    fclose(f);
    return fail(path, "read error");
  }
  if (n == cap - 1 && fgetc(f) != EOF) {
    fclose(f);
    return fail(path, "too large for params");
  }
  fclose(f);
  buf[n] = '\0';
  return 0;
}

/* ---- .npy: little-endian '<f2' / '<f4', C order ------------------------- */

static int host_is_little_endian(void) {
  const unsigned short one = 1;
  return *(const unsigned char*)&one == 1;
}

/* .npy data is little-endian: swap items in place on a big-endian device. */
static void to_or_from_little_endian(unsigned char* data, size_t items, size_t item) {
  size_t i, k;
  if (host_is_little_endian()) return;
  for (i = 0; i < items; ++i) {
    unsigned char* e = data + i * item;
    for (k = 0; k < item / 2; ++k) {
      const unsigned char t = e[k];
      e[k] = e[item - 1 - k];
      e[item - 1 - k] = t;
    }
  }
}

/* The value of `key` in a .npy header dictionary, or NULL. */
static const char* dict_value(const char* dict, const char* key) {
  const char* p = strstr(dict, key);
  if (!p) return NULL;
  p = strchr(p + strlen(key), ':');
  return p ? skip_ws(p + 1) : NULL;
}

/* The header dictionary of an open .npy file (format 1.0, 2.0 or 3.0),
 * NUL-terminated into dict (cap bytes); the file is left at the data. */
static int read_npy_header(FILE* f, const char* path, char* dict, size_t cap) {
  unsigned char pre[12];
  unsigned long header_len;
  if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6) != 0) {
    return fail(path, "not a .npy file");
  }
  if (pre[6] == 1) {
    header_len = (unsigned long)pre[8] | (unsigned long)pre[9] << 8;
  } else if (pre[6] == 2 || pre[6] == 3) {
    if (fread(pre + 10, 1, 2, f) != 2) return fail(path, "truncated header");
    header_len = (unsigned long)pre[8] | (unsigned long)pre[9] << 8 | (unsigned long)pre[10] << 16 |
                 (unsigned long)pre[11] << 24;
  } else {
    return fail(path, "unsupported .npy version");
  }
  if (header_len >= cap || fread(dict, 1, header_len, f) != header_len) {
    return fail(path, "truncated or oversized header");
  }
  dict[header_len] = '\0';
  return 0;
}

/* The header's dtype and order: `item`-byte little-endian floats, C order. */
static int check_npy_dtype(const char* dict, const char* path, size_t item) {
  char descr[8];
  const char* p = dict_value(dict, "'descr'");
  if (!p || *p != '\'' || strlen(p) < 5) return fail(path, "no 'descr' in the header");
  memcpy(descr, p + 1, 3);
  descr[3] = '\0';
  if (!((item == 2 && strcmp(descr, "<f2") == 0) || (item == 4 && strcmp(descr, "<f4") == 0))) {
    char detail[64];
    snprintf(detail, sizeof detail, "dtype '%s', expected '%s'", descr, item == 2 ? "<f2" : "<f4");
    return fail(path, detail);
  }
  p = dict_value(dict, "'fortran_order'");
  if (!p || strncmp(p, "False", 5) != 0) {
    return fail(path, "not C order (fortran_order must be False)");
  }
  return 0;
}

/* The header's shape: exactly `shape` (ndim 1 or 2); its element count into
 * *elements, refused when `item`-byte elements would not fit in a size_t. */
static int check_npy_shape(const char* dict, const char* path, size_t item, int ndim,
                           const long long* shape, size_t* elements) {
  long long dims[2];
  int d, n_dims = 0;
  const char* p = dict_value(dict, "'shape'");
  if (!p || *p != '(') return fail(path, "no 'shape' in the header");
  for (p = skip_ws(p + 1); *p != ')';) {
    char* end = NULL;
    const long long v = strtoll(p, &end, 10);
    if (end == p || n_dims == 2) return fail(path, "shape is not 1- or 2-dimensional");
    dims[n_dims++] = v;
    p = skip_ws(end);
    if (*p == ',') p = skip_ws(p + 1);
  }
  if (n_dims != ndim) {
    return fail(path, ndim == 2 ? "shape is not [batch, channel]" : "shape is not [channel]");
  }
  *elements = 1;
  for (d = 0; d < ndim; ++d) {
    if (dims[d] != shape[d]) {
      char detail[96];
      snprintf(detail, sizeof detail, "dimension %d is %lld, params.json says %lld", d, dims[d],
               shape[d]);
      return fail(path, detail);
    }
    if ((size_t)shape[d] > ((size_t)-1) / item / *elements) {
      return fail(path, "too large for this machine");
    }
    *elements *= (size_t)shape[d];
  }
  return 0;
}

/* Reads dir/name (path names it), which must be a C-order array of `item`-byte
 * floats of exactly `shape` (ndim 1 or 2). Returns malloc'ed data (free it) or
 * NULL with g_error set. */
static void* read_npy(const struct folder* dir, const char* name, const char* path, size_t item,
                      int ndim, const long long* shape) {
  char dict[4096];
  size_t elements = 1, got;
  void* data;
  FILE* f = folder_read(dir, name, NULL);
  if (!f) return NULL;
  if (read_npy_header(f, path, dict, sizeof dict) != 0 || check_npy_dtype(dict, path, item) != 0 ||
      check_npy_shape(dict, path, item, ndim, shape, &elements) != 0) {
    fclose(f);
    return NULL;
  }
  data = malloc(elements * item);
  if (!data) {
    fclose(f);
    return fail(path, "out of memory"), NULL;
  }
  got = fread(data, item, elements, f);
  if (got != elements || fgetc(f) != EOF) {
    free(data);
    fclose(f);
    return fail(path, got != elements ? "truncated data" : "longer than its shape"), NULL;
  }
  fclose(f);
  to_or_from_little_endian((unsigned char*)data, elements, item);
  return data;
}

/* dir/name: a .npy of `item`-byte little-endian floats of `shape` (ndim 1 or 2). */
static int write_npy(const struct folder* dir, const char* name, void* data, size_t item, int ndim,
                     const long long* shape) {
  /* The dictionary (at most 2 x 20 digits) and its padding to a multiple of 64. */
  char header[256];
  size_t len, elements = 1, total;
  int d, n, ok;
  struct output out;
  if (ndim == 2) {
    n = snprintf(header, sizeof header,
                 "{'descr': '<f%u', 'fortran_order': False, 'shape': (%lld, %lld), }",
                 (unsigned)item, shape[0], shape[1]);
  } else {
    n = snprintf(header, sizeof header,
                 "{'descr': '<f%u', 'fortran_order': False, 'shape': (%lld,), }", (unsigned)item,
                 shape[0]);
  }
  /* Room for the padding below (at most 64 bytes) is checked with the dictionary. */
  if (n < 0 || (size_t)n + 64 >= sizeof header) return fail(name, "header too long");
  for (d = 0; d < ndim; ++d) elements *= (size_t)shape[d];
  /* Pad with spaces and a newline so the data starts at a multiple of 64. */
  len = (size_t)n;
  total = (10 + len + 1 + 63) / 64 * 64;
  while (10 + len + 1 < total) header[len++] = ' ';
  header[len++] = '\n';
  if (output_begin(&out, dir, name) != 0) return -1;
  ok = fwrite("\x93NUMPY\x01\x00", 1, 8, out.f) == 8;
  ok = fputc((int)(len & 0xff), out.f) != EOF && ok;
  ok = fputc((int)(len >> 8), out.f) != EOF && ok;
  ok = fwrite(header, 1, len, out.f) == len && ok;
  to_or_from_little_endian((unsigned char*)data, elements, item);
  ok = fwrite(data, item, elements, out.f) == elements && ok;
  to_or_from_little_endian((unsigned char*)data, elements, item);
  return output_end(&out, dir, ok);
}

/* ---- status.json ---------------------------------------------------------- */

static void write_json_string(FILE* f, const char* s) {
  fputc('"', f);
  for (; *s; ++s) {
    if (*s == '"' || *s == '\\') {
      fputc('\\', f);
      fputc(*s, f);
    } else if ((unsigned char)*s < 0x20) {
      fprintf(f, "\\u%04x", (unsigned)(unsigned char)*s);
    } else {
      fputc(*s, f);
    }
  }
  fputc('"', f);
}

/* error == NULL: the call ran and returned status. */
static int write_status(const struct folder* dir, const char* entry, int status,
                        const char* error) {
  struct output out;
  if (output_begin(&out, dir, "status.json") != 0) return -1;
  fprintf(out.f, "{\n  \"harness_target\": \"%s\",\n  \"entry_point\": ", HARNESS_TARGET);
  write_json_string(out.f, entry);
  if (error) {
    fprintf(out.f, ",\n  \"status\": null,\n  \"harness_error\": ");
    write_json_string(out.f, error);
  } else {
    fprintf(out.f, ",\n  \"status\": %d,\n  \"message\": ", status);
    write_json_string(out.f, bng_status_string(status));
  }
  fprintf(out.f, "\n}\n");
  return output_end(&out, dir, 1); /* output_end checks ferror */
}

/* Outputs of an earlier run would be judged as this run's: remove them first. */
static void remove_outputs(const struct folder* dir) {
  static const char* const names[] = {"dx.npy", "dbias.npy", "dscale.npy", "status.json"};
  size_t i;
  for (i = 0; i < sizeof names / sizeof names[0]; ++i) folder_remove(dir, names[i]);
}

/* ---- the call ------------------------------------------------------------- */

static int call_entry(const char* e, const void* x, const void* dy, void* dx, void* mean,
                      void* invar, void* scale, void* dbias, void* dscale, long long batch,
                      long long channel, long long is_train, int mask, int* status) {
  long long params[BNG_PARAM_COUNT];
  memset(params, 0, sizeof params);
  params[BNG_PARAM_MEAN] = (long long)(intptr_t)mean;
  params[BNG_PARAM_INVAR] = (long long)(intptr_t)invar;
  params[BNG_PARAM_SCALE] = (long long)(intptr_t)scale;
  params[BNG_PARAM_DBIAS] = (long long)(intptr_t)dbias;
  params[BNG_PARAM_DSCALE] = (long long)(intptr_t)dscale;
  params[BNG_PARAM_BATCH] = batch;
  params[BNG_PARAM_CHANNEL] = channel;
  params[BNG_PARAM_IS_TRAIN] = is_train;
  if (0) {
#if BNG_TARGET_HAS_FP
  } else if (strcmp(e, "fp_batch_norm_grad_s") == 0) {
    *status = fp_batch_norm_grad_s((const float*)x, (const float*)dy, (float*)dx, params, mask);
  } else if (strcmp(e, "fp_batch_norm_grad_p") == 0) {
    *status = fp_batch_norm_grad_p((const float*)x, (const float*)dy, (float*)dx, params);
  } else if (strcmp(e, "fp_batchnormgrad_s") == 0 || strcmp(e, "fp_batchnormgrad_p") == 0) {
    if (batch > 0x7fffffffLL || channel > 0x7fffffffLL) return fail(e, "shape exceeds int");
    *status =
        e[strlen(e) - 1] == 's' /* the flat forms: _s takes the mask */
            ? fp_batchnormgrad_s((const float*)x, (const float*)dy, (const float*)mean,
                                 (const float*)invar, (const float*)scale, (int)batch, (int)channel,
                                 (int)is_train, (float*)dx, (float*)dbias, (float*)dscale, mask)
            : fp_batchnormgrad_p((const float*)x, (const float*)dy, (const float*)mean,
                                 (const float*)invar, (const float*)scale, (int)batch, (int)channel,
                                 (int)is_train, (float*)dx, (float*)dbias, (float*)dscale);
#endif
#if BNG_TARGET_HAS_MP
  } else if (strcmp(e, "mp_batch_norm_grad_s") == 0) {
    *status = mp_batch_norm_grad_s((const half*)x, (const half*)dy, (half*)dx, params, mask);
  } else if (strcmp(e, "mp_batch_norm_grad_p") == 0) {
    *status = mp_batch_norm_grad_p((const half*)x, (const half*)dy, (half*)dx, params);
#endif
#if BNG_TARGET_HAS_HP
  } else if (strcmp(e, "hp_batch_norm_grad_s") == 0) {
    *status = hp_batch_norm_grad_s((const half*)x, (const half*)dy, (half*)dx, params, mask);
  } else if (strcmp(e, "hp_batch_norm_grad_p") == 0) {
    *status = hp_batch_norm_grad_p((const half*)x, (const half*)dy, (half*)dx, params);
  } else if (strcmp(e, "hp_batchnormgrad_s") == 0 || strcmp(e, "hp_batchnormgrad_p") == 0) {
    if (batch > 0x7fffffffLL || channel > 0x7fffffffLL) return fail(e, "shape exceeds int");
    *status =
        e[strlen(e) - 1] == 's'
            ? hp_batchnormgrad_s((const half*)x, (const half*)dy, (const half*)mean,
                                 (const half*)invar, (const half*)scale, (int)batch, (int)channel,
                                 (int)is_train, (half*)dx, (half*)dbias, (half*)dscale, mask)
            : hp_batchnormgrad_p((const half*)x, (const half*)dy, (const half*)mean,
                                 (const half*)invar, (const half*)scale, (int)batch, (int)channel,
                                 (int)is_train, (half*)dx, (half*)dbias, (half*)dscale);
#endif
  } else {
    return fail(e, "not an entry point of the " HARNESS_TARGET " library");
  }
  return 0;
}

/* ---- one case ------------------------------------------------------------- */

enum case_result { CASE_RAN, CASE_OTHER_TARGET, CASE_ERROR };

/* The five inputs of a case into in[] (malloc'ed: free them), each of the
 * shape params.json gives: x and dy [batch, channel], the others [channel]. */
static int read_inputs(const struct folder* dir, size_t data_item, size_t stats_item,
                       const long long* matrix, const long long* vector, void** in) {
  static const char* const inputs[] = {"x.npy", "dy.npy", "mean.npy", "invar.npy", "scale.npy"};
  char path[PATH_CAP];
  int i;
  for (i = 0; i < 5; ++i) {
    if (join(path, dir->path, inputs[i]) != 0) return -1;
    in[i] = i < 2 ? read_npy(dir, inputs[i], path, data_item, 2, matrix)
                  : read_npy(dir, inputs[i], path, stats_item, 1, vector);
    if (!in[i]) return -1;
  }
  return 0;
}

/* The call on in[] into out[] = dx, dbias, dscale (malloc'ed: free them) with
 * its status in *status, the hook, and (status 0) the outputs as .npy files. */
static int call_and_write(const struct folder* dir, const struct params* pr, void* const* in,
                          size_t data_item, size_t stats_item, const long long* matrix,
                          const long long* vector, void** out, int* status) {
  const size_t elements = (size_t)pr->batch * (size_t)pr->channel;
  struct bng_harness_call call;
  out[0] = malloc(elements * data_item);
  out[1] = malloc((size_t)pr->channel * stats_item);
  out[2] = malloc((size_t)pr->channel * stats_item);
  if (!out[0] || !out[1] || !out[2]) return fail(dir->path, "out of memory for the outputs");
  /* 0xff bytes are a NaN in both formats: an output the library leaves unwritten cannot pass. */
  memset(out[0], 0xff, elements * data_item);
  memset(out[1], 0xff, (size_t)pr->channel * stats_item);
  memset(out[2], 0xff, (size_t)pr->channel * stats_item);
  if (call_entry(pr->entry_point, in[0], in[1], out[0], in[2], in[3], in[4], out[1], out[2],
                 pr->batch, pr->channel, pr->is_train, (int)pr->core_mask, status) != 0) {
    return -1;
  }
  call.entry_point = pr->entry_point;
  call.batch = pr->batch;
  call.channel = pr->channel;
  call.is_train = pr->is_train;
  call.half_data = data_item == 2;
  call.half_stats = stats_item == 2;
  call.dx = out[0];
  call.dbias = out[1];
  call.dscale = out[2];
  call.status = *status;
  BNG_HARNESS_AFTER_CALL(&call);
  if (*status == 0) {
    if (write_npy(dir, "dx.npy", out[0], data_item, 2, matrix) != 0 ||
        write_npy(dir, "dbias.npy", out[1], stats_item, 1, vector) != 0 ||
        write_npy(dir, "dscale.npy", out[2], stats_item, 1, vector) != 0) {
      return -1;
    }
  }
  return 0;
}

static enum case_result run_case(const struct folder* dir) {
  static char text[PARAMS_CAP];
  char path[PATH_CAP];
  struct params pr;
  void* in[5] = {NULL, NULL, NULL, NULL, NULL};
  void* out[3] = {NULL, NULL, NULL}; /* dx, dbias, dscale */
  size_t data_item, stats_item;
  long long matrix[2], vector[1];
  int i, status = 0, rc = -1;

  g_error[0] = '\0';
  if (join(path, dir->path, "params.json") != 0 ||
      read_text(dir, "params.json", path, text, sizeof text) != 0 ||
      parse_params(text, &pr, path) != 0) {
    remove_outputs(dir);
    write_status(dir, "?", 0, g_error);
    return CASE_ERROR;
  }
  if (strcmp(pr.target, HARNESS_TARGET) != 0) return CASE_OTHER_TARGET;
  remove_outputs(dir);
  if (pr.batch < 1 || pr.channel < 1 || (size_t)pr.batch > ((size_t)-1) / 4 / (size_t)pr.channel) {
    fail(path, "batch and channel must be positive and fit this machine");
    goto done;
  }
  data_item = pr.entry_point[0] == 'f' ? 4 : 2;
  stats_item = pr.entry_point[0] == 'h' ? 2 : 4;
  matrix[0] = pr.batch;
  matrix[1] = pr.channel;
  vector[0] = pr.channel;
  if (read_inputs(dir, data_item, stats_item, matrix, vector, in) != 0 ||
      call_and_write(dir, &pr, in, data_item, stats_item, matrix, vector, out, &status) != 0) {
    goto done;
  }
  rc = write_status(dir, pr.entry_point, status, NULL);
done:
  if (rc != 0) {
    remove_outputs(dir);
    write_status(dir, pr.has_entry ? pr.entry_point : "?", 0, g_error);
  }
  for (i = 0; i < 5; ++i) free(in[i]);
  for (i = 0; i < 3; ++i) free(out[i]);
  return rc == 0 ? CASE_RAN : CASE_ERROR;
}

/* ---- a pack or a case ----------------------------------------------------- */

struct totals {
  long ran, other, errors;
};

static void count(struct totals* t, enum case_result r, const char* dir) {
  if (r == CASE_RAN) ++t->ran;
  if (r == CASE_OTHER_TARGET) ++t->other;
  if (r == CASE_ERROR) {
    ++t->errors;
    fprintf(stderr, "bng_harness: %s: %s\n", dir, g_error);
  }
}

/* A cases.txt line that was not run: nothing is read, written or deleted for
 * it. `verdict` and `why` say what was wrong with it. */
static void skip_line(struct totals* t, const char* list, unsigned long number, const char* line,
                      size_t n, const char* verdict, const char* why) {
  char shown[81];
  printable(shown, line, n);
  ++t->errors;
  fprintf(stderr, "bng_harness: %s line %lu: '%s%s' %s: %s; nothing read or written for it\n", list,
          number, shown, n > 80 ? "..." : "", verdict, why);
}

/* The cases of a pack (a folder with cases.txt), or the one case folder arg. */
static int run_path(const char* arg, struct totals* t) {
  static char line[LINE_CAP + 1];
  char list_path[PATH_CAP];
  struct folder root, dir;
  unsigned long number = 0;
  size_t n;
  int absent = 0, rc = 0;
  FILE* list;
  if (join(list_path, arg, "cases.txt") != 0) return -1;
  if (folder_open_given(&root, arg) != 0) {
    ++t->errors;
    fprintf(stderr, "bng_harness: %s\n", g_error);
    return 0;
  }
  list = folder_read(&root, "cases.txt", &absent);
  if (!list) {
    if (absent) count(t, run_case(&root), arg); /* one case folder */
    folder_close(&root);
    return absent ? 0 : -1;
  }
  while (read_line(list, line, &n)) {
    const char* why;
    ++number;
    if (n == 0) continue;
    why = refuse_case_line(line, n);
    if (why) {
      skip_line(t, list_path, number, line, n, "refused", why);
    } else if (folder_open_below(&dir, &root, line) != 0) {
      skip_line(t, list_path, number, line, n, "not run", g_error);
    } else {
      count(t, run_case(&dir), dir.path);
      folder_close(&dir);
    }
  }
  if (ferror(list)) rc = fail(list_path, "read error");
  fclose(list);
  folder_close(&root);
  return rc;
}

int main(int argc, char** argv) {
  struct totals t = {0, 0, 0};
  int i;
  if (argc < 2 || strcmp(argv[1], "--help") == 0) {
    fprintf(stderr, "usage: %s PACK_OR_CASE_DIR...\n(the " HARNESS_TARGET " harness)\n", argv[0]);
    return 2;
  }
  for (i = 1; i < argc; ++i) {
    if (run_path(argv[i], &t) != 0) {
      fprintf(stderr, "bng_harness: %s\n", g_error);
      return 2;
    }
  }
  fprintf(stderr, "bng_harness (%s): %ld cases run, %ld of another target left, %ld not run\n",
          HARNESS_TARGET, t.ran, t.other, t.errors);
  return t.errors ? 1 : 0;
}
