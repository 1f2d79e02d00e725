// ecvrf variants on the narrow-limb layouts (ecvrf::NarrowLayoutVariants): the 4-bit window fused on
// fe29 and fe26, each backend.
#include "gpu/kernels/ecvrf_pipeline.cuh"

namespace bx::kern {

void ecvrf_runners_layouts_narrow(std::vector<EcvrfRunner>& out) {
#if defined(BX_ECVRF_KERNELS_ONE)
  (void)out;  // the fused template is compiled once, in ecvrf_layouts_wide.cu
#else
  ecvrf_add_runners(out, ecvrf::NarrowLayoutVariants{});
#endif
}

}  // namespace bx::kern
