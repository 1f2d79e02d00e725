// ecvrf variants on fe32-ptx, compacted (ecvrf::Fe32CompactVariants): hash-to-curve passes, then the
// multiplication pass, every scalar strategy at k = 1, 2, 4.
#include "gpu/kernels/ecvrf_pipeline.cuh"

namespace bx::kern {

void ecvrf_runners_fe32_compact(std::vector<EcvrfRunner>& out) {
#if defined(BX_ECVRF_KERNELS_ONE)
  ecvrf_add_runners<ecvrf::OneModeCompact>(out);
#else
  ecvrf_add_runners(out, ecvrf::Fe32CompactVariants{});
#endif
}

}  // namespace bx::kern
