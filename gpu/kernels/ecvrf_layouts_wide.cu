// ecvrf variants on the wide-limb layouts (ecvrf::WideLayoutVariants): the 4-bit window fused on fe51 and
// fe32, each backend, and the plain double-and-add on fe51-portable fused (the GPU oracle).
#include "gpu/kernels/ecvrf_pipeline.cuh"

namespace bx::kern {

void ecvrf_runners_layouts_wide(std::vector<EcvrfRunner>& out) {
#if defined(BX_ECVRF_KERNELS_ONE)
  ecvrf_add_runners<ecvrf::OracleVariant>(out);
#else
  ecvrf_add_runners(out, ecvrf::WideLayoutVariants{});
#endif
}

}  // namespace bx::kern
