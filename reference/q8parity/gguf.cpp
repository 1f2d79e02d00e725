// The strict GGUF reader (see gguf.hpp).
#include "reference/q8parity/gguf.hpp"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <algorithm>
#include <set>

#include "reference/q8parity/q8_ref.hpp"

namespace bx::ref::gguf {
namespace {

const char* type_name(uint32_t t) {
  switch (t) {
    case kF32: return "F32";
    case kF16: return "F16";
    case 2: return "Q4_0";
    case 3: return "Q4_1";
    case 6: return "Q5_0";
    case 7: return "Q5_1";
    case kQ8_0: return "Q8_0";
    case 9: return "Q8_1";
    case 30: return "BF16";
    default: return "another ggml type";
  }
}
// (block elements, block bytes) of the types whose sizes this reader checks; {0, 0}: not sized here.
std::pair<uint64_t, uint64_t> block_of(uint32_t t) {
  switch (t) {
    case kF32: return {1, 4};
    case kF16: return {1, 2};
    case 2: return {32, 18};
    case 3: return {32, 20};
    case 6: return {32, 22};
    case 7: return {32, 24};
    case kQ8_0: return {32, 34};
    case 9: return {32, 36};
    case 10: return {256, 84};
    case 11: return {256, 110};
    case 12: return {256, 144};
    case 13: return {256, 176};
    case 14: return {256, 210};
    case 15: return {256, 292};
    case 24: return {1, 1};
    case 25: return {1, 2};
    case 26: return {1, 4};
    case 27: return {1, 8};
    case 28: return {1, 8};
    case 30: return {1, 2};
    default: return {0, 0};
  }
}

// A name from the file as it may appear in a one-line message: printable ASCII kept, other bytes as \xNN,
// at most 80 characters.
std::string printable(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    if (o.size() >= 80) {
      o += "...";
      break;
    }
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      o += char(c);
    } else {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", c);
      o += b;
    }
  }
  return o;
}

class Cursor {
 public:
  Cursor(const std::vector<uint8_t>& b, const std::string& path) : b_(b), path_(path) {}
  uint64_t at() const { return at_; }
  uint64_t left() const { return b_.size() - at_; }
  [[noreturn]] void fail(const std::string& what, uint64_t where) const {
    throw GgufError(path_ + ": offset " + std::to_string(where) + ": " + what);
  }
  void need(uint64_t n, const char* what) const {
    if (n > left())
      fail(std::string("truncated: ") + what + " needs " + std::to_string(n) + " bytes, " + std::to_string(left()) +
               " remain (file size " + std::to_string(b_.size()) + ")",
           at_);
  }
  template <class T>
  T get(const char* what) {
    need(sizeof(T), what);
    T v;
    std::memcpy(&v, b_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return v;
  }
  std::string str(const char* what, uint64_t max_len) {
    const uint64_t start = at_;
    const uint64_t n = get<uint64_t>(what);
    if (n > max_len) fail(std::string(what) + ": length " + std::to_string(n) + " exceeds " + std::to_string(max_len), start);
    need(n, what);
    std::string s(reinterpret_cast<const char*>(b_.data() + at_), size_t(n));
    at_ += n;
    return s;
  }
  void skip(uint64_t n, const char* what) {
    need(n, what);
    at_ += n;
  }

 private:
  const std::vector<uint8_t>& b_;
  const std::string& path_;
  uint64_t at_ = 0;
};

constexpr uint32_t kArray = 9, kString = 8;
uint64_t scalar_size(uint32_t t) {
  switch (t) {
    case 0: case 1: case 7: return 1;      // u8, i8, bool
    case 2: case 3: return 2;              // u16, i16
    case 4: case 5: case 6: return 4;      // u32, i32, f32
    case 10: case 11: case 12: return 8;   // u64, i64, f64
    default: return 0;
  }
}

void skip_value(Cursor& c, uint32_t type, const std::string& key, int depth) {
  const uint64_t start = c.at();
  if (type == kString) {
    c.str("a metadata string value", uint64_t(1) << 32);
    return;
  }
  if (type == kArray) {
    if (depth > 3) c.fail("metadata '" + printable(key) + "': arrays nested deeper than 4", start);
    const uint32_t et = c.get<uint32_t>("array element type");
    const uint64_t n = c.get<uint64_t>("array length");
    if (et != kString && et != kArray && scalar_size(et) == 0)
      c.fail("metadata '" + printable(key) + "': unknown array element type " + std::to_string(et), start);
    const uint64_t min_each = et == kString || et == kArray ? 8 : scalar_size(et);
    if (n > c.left() / min_each)
      c.fail("metadata '" + printable(key) + "': array of " + std::to_string(n) + " elements does not fit in the file", start);
    if (et != kString && et != kArray) {
      c.skip(n * min_each, "array elements");
      return;
    }
    for (uint64_t i = 0; i < n; ++i) skip_value(c, et, key, depth + 1);
    return;
  }
  const uint64_t s = scalar_size(type);
  if (s == 0) c.fail("metadata '" + printable(key) + "': unknown value type " + std::to_string(type), start);
  c.skip(s, "metadata value");
}

std::string where_of(const File& f, const Tensor& t) {
  return f.path + ": tensor '" + printable(t.name) + "' (info at offset " + std::to_string(t.info_offset) + ", data at offset " +
         std::to_string(t.data_offset) + ")";
}

}  // namespace

uint64_t Tensor::elements() const {
  uint64_t n = 1;
  for (uint64_t d : dims) n *= d;
  return n;
}

const Tensor& File::find(const std::string& name) const {
  for (const Tensor& t : tensors)
    if (t.name == name) return t;
  throw GgufError(path + ": no tensor named '" + printable(name) + "' (" + std::to_string(tensors.size()) + " tensors in the file)");
}

File parse(std::vector<uint8_t> bytes, const std::string& path) {
  File f;
  f.path = path;
  f.bytes = std::move(bytes);
  Cursor c(f.bytes, f.path);
  const uint32_t magic = c.get<uint32_t>("magic");
  if (magic != 0x46554747u) c.fail("not a GGUF file (magic is not \"GGUF\")", 0);
  f.version = c.get<uint32_t>("version");
  if (f.version != 2 && f.version != 3)
    c.fail("GGUF version " + std::to_string(f.version) + " (this reader takes versions 2 and 3, little-endian)", 4);
  const uint64_t n_tensors = c.get<uint64_t>("tensor count"), n_kv = c.get<uint64_t>("metadata count");
  // Every entry takes at least 8 (metadata) or 24 (tensor info) bytes: counts beyond that are lies.
  if (n_kv > c.left() / 12) c.fail("truncated or corrupt: metadata count " + std::to_string(n_kv) + " does not fit in the file", 16);
  if (n_tensors > c.left() / 24) c.fail("truncated or corrupt: tensor count " + std::to_string(n_tensors) + " does not fit in the file", 8);
  std::set<std::string> keys;
  for (uint64_t i = 0; i < n_kv; ++i) {
    const uint64_t start = c.at();
    const std::string key = c.str("metadata key", 65535);
    if (key.empty()) c.fail("empty metadata key", start);
    if (!keys.insert(key).second) c.fail("duplicate metadata key '" + printable(key) + "'", start);
    const uint64_t tpos = c.at();
    const uint32_t type = c.get<uint32_t>("metadata value type");
    if (key == "general.alignment") {
      if (type != 4) c.fail("general.alignment must be a u32 (type 4), got type " + std::to_string(type), tpos);
      const uint32_t a = c.get<uint32_t>("general.alignment");
      if (a == 0 || (a & (a - 1)) || a > 65536) c.fail("general.alignment " + std::to_string(a) + " is not a power of two up to 65536", tpos);
      f.alignment = a;
      continue;
    }
    skip_value(c, type, key, 0);
  }
  std::set<std::string> names;
  for (uint64_t i = 0; i < n_tensors; ++i) {
    Tensor t;
    t.info_offset = c.at();
    t.name = c.str("tensor name", 64);
    if (t.name.empty()) c.fail("a tensor with an empty name", t.info_offset);
    if (!names.insert(t.name).second) c.fail("duplicate tensor name '" + printable(t.name) + "'", t.info_offset);
    const uint32_t nd = c.get<uint32_t>("tensor n_dims");
    if (nd < 1 || nd > 4) c.fail("tensor '" + printable(t.name) + "': n_dims " + std::to_string(nd) + " (1..4)", t.info_offset);
    uint64_t elements = 1;
    for (uint32_t d = 0; d < nd; ++d) {
      const uint64_t v = c.get<uint64_t>("tensor dimension");
      if (v == 0) c.fail("tensor '" + printable(t.name) + "': dimension " + std::to_string(d) + " is 0", t.info_offset);
      if (v > (uint64_t(1) << 48) / elements) c.fail("tensor '" + printable(t.name) + "': more than 2^48 elements", t.info_offset);
      elements *= v;
      t.dims.push_back(v);
    }
    t.type = c.get<uint32_t>("tensor type");
    t.data_offset = c.get<uint64_t>("tensor offset");
    f.tensors.push_back(t);
  }
  f.data_start = (c.at() + f.alignment - 1) / f.alignment * f.alignment;
  if (f.data_start > f.bytes.size() && !f.tensors.empty())
    c.fail("truncated: the data section would start at " + std::to_string(f.data_start) + ", past the end", c.at());
  for (Tensor& t : f.tensors) {
    const uint64_t rel = t.data_offset;
    if (rel % f.alignment)
      throw GgufError(f.path + ": tensor '" + printable(t.name) + "' (info at offset " + std::to_string(t.info_offset) + "): data offset " +
                      std::to_string(rel) + " is not a multiple of the alignment " + std::to_string(f.alignment));
    if (rel > f.bytes.size() - std::min<uint64_t>(f.data_start, f.bytes.size()))
      throw GgufError(f.path + ": tensor '" + printable(t.name) + "' (info at offset " + std::to_string(t.info_offset) +
                      "): data offset " + std::to_string(rel) + " lies past the end of the file (size " +
                      std::to_string(f.bytes.size()) + ")");
    t.data_offset = f.data_start + rel;
    const auto [be, bb] = block_of(t.type);
    if (be) {
      if (t.dims[0] % be)
        throw GgufError(where_of(f, t) + ": row length " + std::to_string(t.dims[0]) + " is not a multiple of " + type_name(t.type) +
                        "'s block of " + std::to_string(be));
      t.bytes = t.elements() / be * bb;
      if (rel > f.bytes.size() || t.data_offset > f.bytes.size() || t.bytes > f.bytes.size() - t.data_offset)
        throw GgufError(where_of(f, t) + ": " + std::to_string(t.bytes) + " bytes of data run past the end of the file (size " +
                        std::to_string(f.bytes.size()) + ")");
    }
  }
  return f;
}

File read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw GgufError(path + ": cannot open the file");
  std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw GgufError(path + ": read error");
  return parse(std::move(b), path);
}

Q8Matrix q8_matrix(const File& f, const std::string& name) {
  const Tensor& t = f.find(name);
  if (t.type != kQ8_0)
    throw GgufError(where_of(f, t) + ": type " + std::to_string(t.type) + " (" + type_name(t.type) + "), expected Q8_0 (8)");
  if (t.dims.size() > 2) throw GgufError(where_of(f, t) + ": " + std::to_string(t.dims.size()) + " dimensions, expected a matrix");
  Q8Matrix m;
  m.k = size_t(t.dims[0]);
  m.rows = t.dims.size() > 1 ? size_t(t.dims[1]) : 1;
  m.blocks.assign(f.bytes.begin() + std::ptrdiff_t(t.data_offset), f.bytes.begin() + std::ptrdiff_t(t.data_offset + t.bytes));
  return m;
}

Activations activations(const File& f, const std::string& name) {
  const Tensor& t = f.find(name);
  if (t.type != kF32 && t.type != kF16)
    throw GgufError(where_of(f, t) + ": type " + std::to_string(t.type) + " (" + type_name(t.type) + "), expected F32 (0) or F16 (1)");
  if (t.dims.size() > 2) throw GgufError(where_of(f, t) + ": " + std::to_string(t.dims.size()) + " dimensions, expected tokens x K");
  Activations a;
  a.k = size_t(t.dims[0]);
  a.tokens = t.dims.size() > 1 ? size_t(t.dims[1]) : 1;
  a.x.resize(size_t(t.elements()));
  const uint8_t* p = f.bytes.data() + t.data_offset;
  for (size_t i = 0; i < a.x.size(); ++i) {
    if (t.type == kF32)
      std::memcpy(&a.x[i], p + 4 * i, 4);
    else
      a.x[i] = q8::fp16_to_fp32(uint16_t(p[2 * i] | p[2 * i + 1] << 8));
  }
  return a;
}

}  // namespace bx::ref::gguf
