// `gpudoctor info` as aligned text for people.
#pragma once

#include <string>

#include "snapshot/snapshot.h"

namespace gpudoctor {

struct TextStyle {
  bool color = false;  // ANSI colour: only on a TTY without NO_COLOR
};

std::string RenderInfoText(const Snapshot& snapshot, const TextStyle& style = {});

}  // namespace gpudoctor
