// The library a target's kernels run from is the file bngcert hashed and
// names in its certificate. A path is not enough: the file at a path can be
// replaced between the hash and dlopen, and the file dlopen maps is what runs.
// So the device and inode of the file hashed (fstat of the descriptor read,
// library_identity.hpp) are held against those of the file the loader mapped
// (/proc/self/maps, at the address of one of its symbols), and a library whose
// own build record names another target is refused.
#pragma once

#include <string>

#include "bng/properties/target.hpp"
#include "input_file.hpp"
#include "library_identity.hpp"

namespace bng::cert {

// The file mapped at an address of this process, as /proc/self/maps has it.
struct MappedFile {
  FileId file;
  std::string path;  // the kernel's name for it, for messages
};
// Throws std::runtime_error when no mapping of a file holds `address`.
MappedFile mapped_file(const void* address);

// "" when `symbol` (an address inside a loaded library) lies in an object the
// loader mapped from the very file `hashed` was read from; otherwise why not,
// naming both files with their device and inode.
std::string binding_mismatch(const LibraryIdentity& hashed, const void* symbol);

// The target's library, once per process, before any case runs: hashed
// (prop::library_path, absolute), refused if its build record names another
// target, loaded, and refused unless the file loaded is the file hashed.
// Throws std::runtime_error saying which. The identity returned is what a
// certificate records of it.
const LibraryIdentity& bind_library(prop::Target t);

}  // namespace bng::cert
