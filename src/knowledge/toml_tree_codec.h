// A TomlNode tree as bytes, so the built-in knowledge base is parsed once, at build time, and read at
// start in one pass without tokenizing (issue 34). tools/kbc/ encodes each data/*.toml after
// ParseTomlTree accepted it; the loader decodes the embedded bytes into the same tree, so every section
// parser and check still reads one TomlNode tree whatever its source. Depends on nothing but std, so the
// host tool builds it with the host compiler in a cross build.
//
// Format (every integer little-endian; "varint" is LEB128, 7 bits a byte, low bits first):
//   blob  := "GDTT" version:u8 node
//   node  := kind:u8 line:varint body
//   body  := table: count:varint (key:bytes node)*   array: count:varint node*
//            string, date, time, date-time: bytes      integer: u64 (two's complement)
//            float: u64 (the IEEE-754 bits)            boolean: u8 (0 or 1)
//   bytes := length:varint byte*
// The blob is made from a tree toml++ already checked (UTF-8, escapes, depth), so the decoder checks only
// what keeps it safe on bytes that are not such a blob: bounds, kinds, counts and nesting depth.
#pragma once

#include <string>
#include <string_view>

#include "knowledge/toml_tree.h"

namespace gpudoctor {

// The blob of `root`.
std::string EncodeTomlTree(const TomlNode& root);

// The tree of a blob made by EncodeTomlTree, or (root unset) an error naming the byte offset where the blob
// stops making sense. Never throws or reads outside `bytes`.
TomlParse DecodeTomlTree(std::string_view bytes);

}  // namespace gpudoctor
