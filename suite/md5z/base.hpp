// An md5z base checked and prepared: the reference's base checker and the tunnel's own check must both
// accept it (the vector files, verify's --base and the oracle read bases through this).
#pragma once
#include <string>

#include "gpu/md5z/search.hpp"
#include "reference/md5z/md5z_ref.hpp"

namespace bx::md5z {

// The tunnel precomputation of a base; throws InputError naming `what` if it is not a base.
md5::TunnelBase prepare(const ref::md5z::Message& base, const std::string& what);

}  // namespace bx::md5z
