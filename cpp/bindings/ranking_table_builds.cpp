// The ranking score tables' builds (ranking_table_builds.hpp), compiled once
// here for each (score type, stored dtype) pair of bindings::visit_score_dtype,
// weighted and not.
#include "ranking_table_builds.hpp"

#include <cstdint>

#include "turbometrics/ranking/score_table_builder.hpp"

namespace turbometrics::bindings {

template <class Score, class Stored, bool Weighted>
std::unique_ptr<ranking::SortedScores<Score, Weighted>> build_score_table(
    const ranking::RankingInput<Score, Stored>& input, int n_threads, int checks, const Interrupt& interrupt,
    ranking::TableStrategy strategy) {
  return std::make_unique<ranking::SortedScores<Score, Weighted>>(
      ranking::sorted_scores<Weighted>(input, n_threads, checks, interrupt, strategy));
}

// One explicit instantiation per pair and weighting.
#define TURBOMETRICS_BUILD_SCORE_TABLE(Score, Stored, Weighted)                                                \
  template std::unique_ptr<ranking::SortedScores<Score, Weighted>> build_score_table<Score, Stored, Weighted>( \
      const ranking::RankingInput<Score, Stored>&, int, int, const Interrupt&, ranking::TableStrategy);
#define TURBOMETRICS_BUILD_SCORE_TABLES(Score, Stored) \
  TURBOMETRICS_BUILD_SCORE_TABLE(Score, Stored, false) \
  TURBOMETRICS_BUILD_SCORE_TABLE(Score, Stored, true)

TURBOMETRICS_BUILD_SCORE_TABLES(double, double)
TURBOMETRICS_BUILD_SCORE_TABLES(float, float)
TURBOMETRICS_BUILD_SCORE_TABLES(int64_t, int64_t)
TURBOMETRICS_BUILD_SCORE_TABLES(int64_t, int32_t)
TURBOMETRICS_BUILD_SCORE_TABLES(uint64_t, uint64_t)
TURBOMETRICS_BUILD_SCORE_TABLES(int64_t, uint32_t)
TURBOMETRICS_BUILD_SCORE_TABLES(int64_t, uint8_t)

#undef TURBOMETRICS_BUILD_SCORE_TABLES
#undef TURBOMETRICS_BUILD_SCORE_TABLE

}  // namespace turbometrics::bindings
