#include "suite/md5z/base.hpp"

#include "suite/hex.hpp"

namespace bx::md5z {

md5::TunnelBase prepare(const ref::md5z::Message& base, const std::string& what) {
  const std::string why = ref::md5z::base_problem(base);
  if (!why.empty()) throw InputError(what + ": " + why);
  uint32_t w[16];
  md5::message_words(base.data(), w);
  md5::TunnelBase tb;
  if (!md5::tunnel_prepare(w, tb))
    throw InputError(what + ": the reference accepts this base but the tunnel precomputation rejects it");
  return tb;
}

}  // namespace bx::md5z
