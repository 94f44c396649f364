// The catalog's data files (core/catalog/devices/*.json, core/catalog/models/*.json) as text
// built into the core: generated at build time by core/catalog/embed.cmake, read by catalog.cpp.
#pragma once

#include <cstddef>
#include <string_view>

namespace roofline::detail {

struct CatalogFile {
  std::string_view path;  ///< "models/llama3-8b.json", relative to core/catalog/
  std::string_view text;  ///< its JSON, without the page's translations
};

extern const CatalogFile catalog_files[];
extern const std::size_t catalog_file_count;

}  // namespace roofline::detail
