// ecvrf variants on fe32-ptx, fused (ecvrf::Fe32FusedVariants): every scalar strategy at k = 1, 2, 4.
#include "gpu/kernels/ecvrf_pipeline.cuh"

namespace bx::kern {

void ecvrf_runners_fe32_fused(std::vector<EcvrfRunner>& out) {
#if defined(BX_ECVRF_KERNELS_ONE)
  (void)out;  // the fused template is compiled once, in ecvrf_layouts_wide.cu
#else
  ecvrf_add_runners(out, ecvrf::Fe32FusedVariants{});
#endif
}

}  // namespace bx::kern
