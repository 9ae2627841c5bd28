// The ranking score tables (ranking::SortedScores), built from the bindings'
// input. Only declared here: ranking_table_builds.cpp compiles the builds
// (the sorts and counts, the costly part of the ranking bindings) once for
// every score dtype the bindings read (bindings::visit_score_dtype), so that
// a binding file sweeping the tables compiles its glue and sweeps only.
#pragma once

#include <memory>

#include "turbometrics/interrupt.hpp"
#include "turbometrics/ranking/score_table.hpp"

namespace turbometrics::bindings {

// The table of `input`: ranking::sorted_scores() (see there), on the heap.
template <class Score, class Stored, bool Weighted>
std::unique_ptr<ranking::SortedScores<Score, Weighted>> build_score_table(
    const ranking::RankingInput<Score, Stored>& input, int n_threads, int checks, const Interrupt& interrupt,
    ranking::TableStrategy strategy);

}  // namespace turbometrics::bindings
