// Writes and reads the TomlNode blob described in toml_tree_codec.h.
#include "knowledge/toml_tree_codec.h"

#include <bit>
#include <cstdint>
#include <cstring>

#include "knowledge/toml_depth.h"

namespace gpudoctor {
namespace {

constexpr std::string_view kTreeMagic = "GDTT";
constexpr uint8_t kTreeVersion = 1;
constexpr uint8_t kLastKind = static_cast<uint8_t>(TomlNode::Kind::kDateTime);

void PutVarint(std::string& out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

void PutU64(std::string& out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

void PutBytes(std::string& out, std::string_view text) {
  PutVarint(out, text.size());
  out.append(text);
}

void PutNode(std::string& out, const TomlNode& node) {
  out.push_back(static_cast<char>(node.kind));
  PutVarint(out, node.line);
  switch (node.kind) {
    case TomlNode::Kind::kTable:
      PutVarint(out, node.fields.size());
      for (const TomlField& field : node.fields) {
        PutBytes(out, field.key);
        PutNode(out, field.value);
      }
      break;
    case TomlNode::Kind::kArray:
      PutVarint(out, node.items.size());
      for (const TomlNode& item : node.items) PutNode(out, item);
      break;
    case TomlNode::Kind::kString:
    case TomlNode::Kind::kDate:
    case TomlNode::Kind::kTime:
    case TomlNode::Kind::kDateTime:
      PutBytes(out, node.text);
      break;
    case TomlNode::Kind::kInteger:
      PutU64(out, static_cast<uint64_t>(node.integer));
      break;
    case TomlNode::Kind::kFloat:
      PutU64(out, std::bit_cast<uint64_t>(node.number));
      break;
    case TomlNode::Kind::kBoolean:
      out.push_back(node.boolean ? 1 : 0);
      break;
  }
}

// Reads one blob front to back; the first problem stops it and stays in `error`.
class TreeReader {
 public:
  explicit TreeReader(std::string_view bytes) : bytes_(bytes) {}

  bool ReadHeader() {
    if (bytes_.substr(0, kTreeMagic.size()) != kTreeMagic) return Fail("not a compiled TOML tree (no GDTT)");
    pos_ = kTreeMagic.size();
    uint8_t version = 0;
    if (!ReadByte(version)) return false;
    if (version != kTreeVersion) return Fail("compiled TOML tree of version " + std::to_string(version));
    return true;
  }

  bool ReadNode(TomlNode& node, size_t depth) {
    uint8_t kind = 0;
    uint64_t line = 0;
    if (!ReadByte(kind) || !ReadVarint(line)) return false;
    if (kind > kLastKind) return Fail("unknown node kind " + std::to_string(kind));
    if (line > UINT32_MAX) return Fail("line number out of range");
    node.kind = static_cast<TomlNode::Kind>(kind);
    node.line = static_cast<uint32_t>(line);
    return ReadBody(node, depth);
  }

  bool AtEnd() { return pos_ == bytes_.size() || Fail("bytes after the tree"); }

  std::string error;

 private:
  bool ReadBody(TomlNode& node, size_t depth) {
    switch (node.kind) {
      case TomlNode::Kind::kTable:
      case TomlNode::Kind::kArray:
        if (depth >= kMaxTomlDepth) return Fail("tables or arrays nested too deep");
        return node.kind == TomlNode::Kind::kTable ? ReadFields(node, depth) : ReadItems(node, depth);
      case TomlNode::Kind::kString:
      case TomlNode::Kind::kDate:
      case TomlNode::Kind::kTime:
      case TomlNode::Kind::kDateTime:
        return ReadBytes(node.text);
      case TomlNode::Kind::kInteger: {
        uint64_t value = 0;
        if (!ReadU64(value)) return false;
        node.integer = static_cast<int64_t>(value);
        return true;
      }
      case TomlNode::Kind::kFloat: {
        uint64_t value = 0;
        if (!ReadU64(value)) return false;
        node.number = std::bit_cast<double>(value);
        return true;
      }
      case TomlNode::Kind::kBoolean: {
        uint8_t value = 0;
        if (!ReadByte(value)) return false;
        if (value > 1) return Fail("boolean neither 0 nor 1");
        node.boolean = value == 1;
        return true;
      }
    }
    return Fail("unknown node kind");
  }

  bool ReadFields(TomlNode& node, size_t depth) {
    uint64_t count = 0;
    if (!ReadCount(count, 3)) return false;  // a field is at least a key length, a kind and a line
    node.fields.resize(count);
    for (TomlField& field : node.fields) {
      if (!ReadBytes(field.key) || !ReadNode(field.value, depth + 1)) return false;
    }
    return true;
  }

  bool ReadItems(TomlNode& node, size_t depth) {
    uint64_t count = 0;
    if (!ReadCount(count, 2)) return false;  // an item is at least a kind and a line
    node.items.resize(count);
    for (TomlNode& item : node.items) {
      if (!ReadNode(item, depth + 1)) return false;
    }
    return true;
  }

  // A count of things of at least `min_size` bytes each must fit in what is left, so a corrupt count never
  // allocates more than the blob could hold.
  bool ReadCount(uint64_t& count, size_t min_size) {
    if (!ReadVarint(count)) return false;
    if (count > (bytes_.size() - pos_) / min_size) return Fail("count larger than the bytes left");
    return true;
  }

  bool ReadBytes(std::string& out) {
    uint64_t size = 0;
    if (!ReadVarint(size)) return false;
    if (size > bytes_.size() - pos_) return Fail("text longer than the bytes left");
    out.assign(bytes_.substr(pos_, size));
    pos_ += size;
    return true;
  }

  bool ReadByte(uint8_t& out) {
    if (pos_ >= bytes_.size()) return Fail("blob ends early");
    out = static_cast<uint8_t>(bytes_[pos_++]);
    return true;
  }

  bool ReadU64(uint64_t& out) {
    if (bytes_.size() - pos_ < 8) return Fail("blob ends early");
    out = 0;
    for (int i = 0; i < 8; ++i) out |= uint64_t{static_cast<uint8_t>(bytes_[pos_ + i])} << (8 * i);
    pos_ += 8;
    return true;
  }

  bool ReadVarint(uint64_t& out) {
    out = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      uint8_t byte = 0;
      if (!ReadByte(byte)) return false;
      out |= uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return Fail("varint longer than 64 bits");
  }

  bool Fail(std::string message) {
    if (error.empty()) error = std::move(message) + " at byte " + std::to_string(pos_);
    return false;
  }

  std::string_view bytes_;
  size_t pos_ = 0;
};

}  // namespace

std::string EncodeTomlTree(const TomlNode& root) {
  std::string out(kTreeMagic);
  out.push_back(static_cast<char>(kTreeVersion));
  PutNode(out, root);
  return out;
}

TomlParse DecodeTomlTree(std::string_view bytes) {
  TomlParse out;
  TreeReader reader(bytes);
  TomlNode root;
  if (reader.ReadHeader() && reader.ReadNode(root, 0) && reader.AtEnd()) {
    out.root = std::move(root);
  } else {
    out.error = reader.error;
  }
  return out;
}

}  // namespace gpudoctor
