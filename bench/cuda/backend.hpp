#pragma once

#include <memory>
#include <string>

#include "../common/case.hpp"

namespace rlk::cuda {
/// True when the CUDA runtime finds a device; otherwise `why` says what is missing.
bool device_available(std::string& why);
std::unique_ptr<Backend> make_cuda_backend();
}  // namespace rlk::cuda
