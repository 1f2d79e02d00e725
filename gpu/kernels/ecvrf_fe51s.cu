// ecvrf variants on fe51s (ecvrf::Fe51sVariants): products on the FP64 pipe. The 4-bit window fused on
// each backend, and the compacted pipelines on the ptx backend.
#include "gpu/kernels/ecvrf_pipeline.cuh"

namespace bx::kern {

void ecvrf_runners_fe51s(std::vector<EcvrfRunner>& out) {
#if defined(BX_ECVRF_KERNELS_ONE)
  (void)out;  // the fused and compacted templates are compiled once, in ecvrf_layouts_wide.cu and ecvrf_fe32_compact.cu
#else
  ecvrf_add_runners(out, ecvrf::Fe51sVariants{});
#endif
}

}  // namespace bx::kern
