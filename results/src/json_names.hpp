// Private: the JSON spelling of the enumerations the results format stores, shared by its
// writer and reader so that the two cannot drift apart. Test type, record mode and step
// type use IOmeter's literals from access_specs (to_string / parse_*).
#pragma once

#include <optional>
#include <string_view>
#include <utility>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/access_specs/test_plan.hpp"
#include "iomark/results/run_results.hpp"

namespace iomark::results::detail {

template <typename Enum>
using EnumName = std::pair<Enum, std::string_view>;

inline constexpr EnumName<TargetKind> kTargetKindNames[] = {{TargetKind::disk, "disk"},
                                                            {TargetKind::network, "network"}};
inline constexpr EnumName<VerifyFailure> kVerifyFailureNames[] = {{VerifyFailure::corrupted, "corrupted"},
                                                                  {VerifyFailure::misdirected, "misdirected"},
                                                                  {VerifyFailure::stale, "stale"}};
inline constexpr EnumName<WorkerKind> kWorkerKindNames[] = {{WorkerKind::disk, "disk"},
                                                            {WorkerKind::network, "network"}};
inline constexpr EnumName<SeriesOutcome> kOutcomeNames[] = {{SeriesOutcome::in_progress, "in_progress"},
                                                            {SeriesOutcome::completed, "completed"},
                                                            {SeriesOutcome::aborted, "aborted"}};
inline constexpr EnumName<RunEnd> kRunEndNames[] = {{RunEnd::completed, "completed"},
                                                     {RunEnd::interrupted, "interrupted"}};
inline constexpr EnumName<access_specs::DefaultAssignment> kAssignmentNames[] = {
    {access_specs::DefaultAssignment::none, "none"},
    {access_specs::DefaultAssignment::all, "all"},
    {access_specs::DefaultAssignment::disk, "disk"},
    {access_specs::DefaultAssignment::network, "network"}};
inline constexpr EnumName<access_specs::UpdateType> kUpdateTypeNames[] = {
    {access_specs::UpdateType::whole_test, "whole_test"}, {access_specs::UpdateType::last_update, "last_update"}};
inline constexpr EnumName<access_specs::WorkerType> kWorkerTypeNames[] = {
    {access_specs::WorkerType::disk, "disk"},
    {access_specs::WorkerType::network_tcp, "network_tcp"},
    {access_specs::WorkerType::network_vi, "network_vi"}};
inline constexpr EnumName<access_specs::DataPattern> kDataPatternNames[] = {
    {access_specs::DataPattern::repeating_bytes, "repeating_bytes"},
    {access_specs::DataPattern::pseudo_random, "pseudo_random"},
    {access_specs::DataPattern::full_random, "full_random"}};

template <typename Enum, std::size_t N>
constexpr std::string_view name_of(const EnumName<Enum> (&names)[N], Enum value) {
  for (const auto& [candidate, name] : names) {
    if (candidate == value) return name;
  }
  return names[0].second;
}

template <typename Enum, std::size_t N>
constexpr std::optional<Enum> value_of(const EnumName<Enum> (&names)[N], std::string_view name) {
  for (const auto& [candidate, candidate_name] : names) {
    if (candidate_name == name) return candidate;
  }
  return std::nullopt;
}

}  // namespace iomark::results::detail
