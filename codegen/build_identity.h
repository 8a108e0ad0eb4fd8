// Which build of tujit is running: part of every object-cache key (object_cache.h), so machine
// code compiled by one build is never loaded by another, whatever changed between them (the code
// generator, the Sequencer IR, a library, the compiler flags) and without a version number kept
// by hand.
#pragma once

#include <string>

namespace tujit::codegen {

/// Lower-case hex of the GNU build ID the linker stored in the binary that holds this code (a
/// hash of the linked program: CMakeLists.txt links with --build-id=sha1); when the binary has
/// none, the SHA-256 of the binary's file. Empty when neither can be found: callers then keep no
/// cache. Computed once.
const std::string& build_identity();

/// The GNU build ID (lower-case hex) of the ELF file at `path`, read from its PT_NOTE segments
/// without loading it; empty when it has none or cannot be read.
std::string file_build_id(const std::string& path);

} // namespace tujit::codegen
