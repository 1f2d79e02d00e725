// A strict reader of GGUF files (ggml's model format, versions 2 and 3, little-endian) for the tensors
// q8parity runs on: Q8_0 weights and F32 / F16 activations. Strict means every length, count, type, offset
// and size is checked against the file before it is used; any problem is a GgufError whose one-line message
// names the file, the tensor (where there is one) and the byte offset. Nothing is read past the end, and
// no count from the file sizes an allocation before it is checked against the bytes that remain.
//
// Layout: magic "GGUF", u32 version, u64 tensor count, u64 metadata count; metadata key/value pairs
// (string key, u32 type, value; arrays of any type, strings as u64 length + bytes); tensor infos (name,
// u32 n_dims 1..4, u64 dims, u32 ggml type, u64 offset relative to the data section); the data section
// starts at the header's end rounded up to general.alignment (default 32), and every tensor offset is a
// multiple of it. dims[0] is the row length (ggml's ne0), dims[1] the row count.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace bx::ref::gguf {

struct GgufError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum TensorType : uint32_t { kF32 = 0, kF16 = 1, kQ8_0 = 8 };

struct Tensor {
  std::string name;
  uint32_t type = 0;
  std::vector<uint64_t> dims;  // ne0 (innermost) first
  uint64_t info_offset = 0;    // where its tensor info starts in the file
  uint64_t data_offset = 0;    // absolute offset of its data in the file
  uint64_t bytes = 0;          // size of its data (0 for types this reader does not size)
  uint64_t elements() const;
};

struct File {
  std::string path;
  uint32_t version = 0;
  uint64_t alignment = 32;
  uint64_t data_start = 0;
  std::vector<Tensor> tensors;
  std::vector<uint8_t> bytes;  // the whole file
  const Tensor& find(const std::string& name) const;  // GgufError naming the file and the tensor
};

// Parses a whole file image; `path` names it in every error.
File parse(std::vector<uint8_t> bytes, const std::string& path);
File read(const std::string& path);  // GgufError if the file cannot be read

// A Q8_0 matrix: rows = dims[1] (1 if 1-D), K = dims[0] (a multiple of 32); its bytes as stored.
struct Q8Matrix {
  size_t rows = 0, k = 0;
  std::vector<uint8_t> blocks;
};
Q8Matrix q8_matrix(const File& f, const std::string& name);
// F32 or F16 activations (F16 converted exactly): tokens = dims[1] (1 if 1-D), K = dims[0].
struct Activations {
  size_t tokens = 0, k = 0;
  std::vector<float> x;  // token-major
};
Activations activations(const File& f, const std::string& name);

}  // namespace bx::ref::gguf
