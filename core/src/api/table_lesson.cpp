// The API table, the lesson: its named cases, exercises and check questions (docs/api.md).
#include "api_internal.hpp"

namespace roofline::api::detail {

std::span<const Function> lesson_functions() {
  static constexpr Function functions[] = {
      {"cases",
       "",
       {},
       "LessonCase",
       "id: string; name: string; values: CaseValues; source: string",
       list,
       [](const Args&) {
         Value v = Value::array();
         for (const LessonCase& c : lesson_cases()) v.push(case_value(c));
         return v;
       }},
      {"lessonCase",
       "",
       {{"id", Kind::lesson_case, ""}},
       "LessonCase",
       "id: string; name: string; values: CaseValues; source: string",
       object,
       [](const Args& a) { return case_value(find_case(a.text("id", ErrorCode::unknown_case, "a case id"), "id")); }},
      {"caseArgs",
       "",
       {{"id", Kind::lesson_case, ""}, {"function", Kind::function, ""}, {"values", Kind::case_values, "", opt}},
       "CaseArgs",
       "*: number | string",
       object,
       [](const Args& a) {
         LessonCase c = find_case(a.text("id", ErrorCode::unknown_case, "a case id"), "id");
         if (a.has("values")) override_case_values(c, a.raw("values"));
         const std::string fn = a.text("function", ErrorCode::unknown_function, "an API function name");
         for (const Function& f : table()) {
           if (f.name != fn) continue;
           std::vector<std::string_view> takes;
           for (const Arg& arg : f.args()) takes.push_back(arg.name);
           return case_args(c, takes);
         }
         throw Error(ErrorCode::unknown_function, "function",
                     "function must name an API function, got \"" + fn.substr(0, 40) + "\"");
       }},
      {"exercise",
       "",
       {{"id", Kind::count, ""}, {"seed", Kind::count_or_zero, "", opt}},
       "Exercise",
       "id: number; level: 'easy' | 'medium' | 'challenge' | 'check'; seed: number; inputs: CaseValues; "
       "parts: ExercisePart[]; solution: CaseValues",
       object,
       [](const Args& a) { return instance_value(exercise(item_id(a, exercise_count, "an exercise"), seed_arg(a))); }},
      {"checkExercise",
       "",
       {{"id", Kind::count, ""}, {"seed", Kind::count_or_zero, "", opt}, {"answers", Kind::answers, ""}},
       "CheckResult",
       "state: 'correct' | 'partial' | 'incorrect' | 'unanswered'; correct: number; parts: PartCheck[]",
       object,
       [](const Args& a) {
         const ExerciseInstance e = exercise(item_id(a, exercise_count, "an exercise"), seed_arg(a));
         return check_value(e, a.raw("answers"));
       }},
      {"question",
       "",
       {{"id", Kind::count, ""}},
       "Exercise",
       "id: number; level: 'easy' | 'medium' | 'challenge' | 'check'; seed: number; inputs: CaseValues; "
       "parts: ExercisePart[]; solution: CaseValues",
       object,
       [](const Args& a) { return instance_value(question(item_id(a, question_count, "a check question"))); }},
      {"checkQuestion",
       "",
       {{"id", Kind::count, ""}, {"answers", Kind::answers, ""}},
       "CheckResult",
       "state: 'correct' | 'partial' | 'incorrect' | 'unanswered'; correct: number; parts: PartCheck[]",
       object,
       [](const Args& a) {
         return check_value(question(item_id(a, question_count, "a check question")), a.raw("answers"));
       }},
  };
  return functions;
}

}  // namespace roofline::api::detail
