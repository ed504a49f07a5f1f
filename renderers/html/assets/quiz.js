// quizbank self-check quiz: grades the answers in the page as Moodle grades them and shows the
// verdicts, the points, the feedback, the right answers and the explanations. No request, no
// framework. Everything it needs comes from the JSON block #quiz-data, which holds what grades
// each question (written by questions.py), the translated messages, and Babel's number format
// for the page's language. Each question type is one entry of TYPES below. Each attempt draws
// the questions it asks: a section's pick of its questions (`data-pick`), and one variant of
// each question with variables (`data-variants`, each variant a question of its own).
(() => {
  "use strict";

  const form = document.getElementById("quiz");
  const data = JSON.parse(document.getElementById("quiz-data").textContent);
  const submitButton = form.querySelector("button.submit");
  const retryButton = form.querySelector("button.retry");
  const scoreBox = form.querySelector(".score");
  const everyQuestion = Array.from(form.querySelectorAll(".question"));
  let questions = everyQuestion; // the questions of this attempt (see draw)
  const specOf = (question) => data.questions[question.dataset.question];

  // Numbers, written with Babel's data for the page's language: its digits, symbols, grouping.
  // Rounded half up through 12 significant digits, so that 1.005 reads 1.01 as written.
  const NUMBER = data.number;

  function roundHalfUp(value, decimals) {
    const scale = 10 ** decimals;
    return Math.round(Number((value * scale).toPrecision(12))) / scale;
  }

  function group(integer, [primary, secondary]) {
    if (integer.length <= primary) {
      return integer;
    }
    let rest = integer.slice(0, -primary);
    let out = NUMBER.group + integer.slice(-primary);
    while (rest.length > secondary) {
      out = NUMBER.group + rest.slice(-secondary) + out;
      rest = rest.slice(0, -secondary);
    }
    return rest + out;
  }

  const localDigits = (text) => text.replace(/[0-9]/g, (digit) => NUMBER.digits[digit]);

  function formatNumber(value) {
    const [integer, decimals] = roundHalfUp(value, NUMBER.decimals)
      .toFixed(NUMBER.decimals)
      .split(".");
    const shown = decimals.replace(/0+$/, "");
    return localDigits(group(integer, NUMBER.grouping) + (shown ? NUMBER.decimal + shown : ""));
  }

  function formatPercent(fraction) {
    const whole = String(roundHalfUp(fraction * 100, 0));
    const [prefix, suffix] = NUMBER.percent;
    return prefix + localDigits(group(whole, NUMBER.percent_grouping)) + suffix;
  }

  // Fill "Your score: %(score)s of %(total)s" as text, each value in its own <bdi> so that
  // numbers keep their place in right-to-left text.
  function fill(element, message, values) {
    const parts = message.split(/%\((\w+)\)s/);
    element.replaceChildren(
      ...parts.map((part, index) => {
        if (index % 2 === 0) {
          return document.createTextNode(part);
        }
        const value = document.createElement("bdi");
        value.textContent = values[part];
        return value;
      }),
    );
  }

  // What a learner typed, as Moodle receives it: PARAM_RAW_TRIMMED and trim() take off only
  // these characters. A response is "not answered" when nothing else is left.
  const PHP_TRIM = /^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g;
  const phpTrim = (text) => text.replace(PHP_TRIM, "");
  const filled = (value) => phpTrim(value) !== "";

  // qtype_shortanswer_question::compare_string_with_wildcard: both texts in Unicode NFC, the
  // response trimmed, `*` any run of characters (not a line break), `\*` an asterisk, the rest
  // literal, case-insensitive unless the question says otherwise. (Moodle trims the accepted
  // answer when it imports it.)
  function matchesWildcard(response, pattern, caseSensitive) {
    const bits = phpTrim(pattern)
      .normalize("NFC")
      .split(/(?<!\\)\*+/)
      .map((bit) => bit.replaceAll("\\*", "*").replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"));
    const regexp = new RegExp(`^${bits.join("[^\\n]*")}$`, caseSensitive ? "u" : "iu");
    return regexp.test(phpTrim(response.normalize("NFC")));
  }

  const gradeText = (response, spec) =>
    spec.answers.some((answer) => matchesWildcard(response, answer, spec.case_sensitive));

  // A number as the learner's locale writes it: Arabic-Indic (٠-٩) and Extended Arabic-Indic
  // (۰-۹) digits, the Arabic decimal separator ٫, a decimal comma; the Arabic thousands
  // separator, no-break spaces and bidi marks are dropped, U+2212 is a minus. Then as Moodle's
  // qtype_numerical_answer_processor::apply_units reads it without units: spaces out, forms of
  // ×10^ as e, commas dropped when there is a point or more than one comma, else a comma is
  // the decimal point (as in a Moodle language whose thousands separator is not a comma); the
  // number that starts the response counts, whatever follows it. null when none does.
  function parseNumber(text) {
    let response = phpTrim(text)
      .replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (digit) => String(digit.charCodeAt(0) & 0xf))
      .replace(/\u066B/g, ".")
      .replace(/[\u066C\u00A0\u202F\u200E\u200F\u061C]/g, "")
      .replace(/\u2212/g, "-")
      .replaceAll(" ", "")
      .replace(/(?:e|E|(?:x|\*|×)10(?:\^|\*\*))([+-]?\d+)/g, "e$1");
    if (response.includes(".") || response.split(",").length > 2) {
      response = response.replaceAll(",", "");
    } else {
      response = response.replace(",", ".");
    }
    const number = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?/.exec(response);
    return number ? Number(number[0]) : null;
  }

  // qtype_numerical_answer::get_tolerance_interval, nominal: Moodle widens the interval by
  // 10^-precision (PHP's precision is 14, set in lib/setup.php) times the larger of the
  // tolerance and the answer, so that 0.9 ± 0.1 takes 1.0 despite binary rounding.
  const EPSILON = 1e-14;

  function gradeNumber(response, spec) {
    const value = parseNumber(response);
    const { answer, tolerance } = spec;
    const margin =
      tolerance + EPSILON * Math.max(Math.abs(tolerance), Math.abs(answer), EPSILON);
    return value !== null && answer - margin <= value && value <= answer + margin;
  }

  // An index below `count`, at random: a self-check's draws need no more than Math.random.
  const randomIndex = (count) => Math.floor(Math.random() * count);

  // Reorder a list's elements (Fisher-Yates).
  function shuffled(items) {
    const order = Array.from(items);
    for (let i = order.length - 1; i > 0; i -= 1) {
      const j = randomIndex(i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order;
  }

  // The choices of a drop-down after its first ("Choose…"), in a new order.
  function shuffleSelect(select, order) {
    const byValue = new Map(Array.from(select.options, (option) => [option.value, option]));
    select.append(...order.map((value) => byValue.get(value)));
  }

  const choicesOf = (select) => Array.from(select.options, (option) => option.value).slice(1);

  // A mark beside one part of an answer (a pair, a gap, an item): an icon and, for screen
  // readers, the word. Never colour alone.
  const ICONS = { right: "M4 12.5l5 5L20 6.5", wrong: "M6 6l12 12M18 6L6 18" };

  function mark(after, right) {
    const kind = right ? "right" : "wrong";
    const box = document.createElement("span");
    box.className = `mark ${kind}`;
    box.innerHTML =
      '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" fill="none"' +
      ' stroke="currentColor" stroke-width="3" stroke-linecap="round"' +
      ` stroke-linejoin="round"><path d="${ICONS[kind]}"/></svg>`;
    const word = document.createElement("span");
    word.className = "visually-hidden";
    word.textContent = right ? data.correct : data.incorrect;
    box.append(word);
    after.after(box);
  }

  // The fields of a question with several parts (pairs, gaps): each part's key and value.
  const parts = (question, selector, key) =>
    Array.from(question.querySelectorAll(selector), (field) => ({
      field,
      key: field.closest(`[data-${key}]`).dataset[key],
      value: field.value,
    }));

  const share = (rights) => (rights.length ? rights.filter(Boolean).length / rights.length : 0);

  // The ordering questions whose items the learner moved in this attempt. A list never touched
  // is no answer: it stands in the order the script shuffled it into, not the learner's.
  const touched = new WeakSet();

  // Each type: read the response from the page; whether it is an answer at all; grade it as a
  // fraction of the question's points, as Moodle does (none for an essay: a person grades it);
  // show what is right and wrong in the answer; and shuffle it for a new attempt.
  const choice = {
    read: (question) =>
      Array.from(question.querySelectorAll(".options input:checked"), (input) => input.value),
    answered: (chosen) => chosen.length > 0,
    // Multiple choice: each option's grade; the sum kept between 0 and 1.
    grade: (chosen, spec) =>
      Math.min(1, Math.max(0, chosen.reduce((sum, id) => sum + spec.grades[id], 0))),
    show(question, spec) {
      for (const option of question.querySelectorAll(".option")) {
        const input = option.querySelector("input");
        const right = spec.grades[input.value] > 0;
        const feedback = option.querySelector(".feedback");
        option.classList.toggle("is-answer", right);
        option.classList.toggle("is-picked-wrong", input.checked && !right);
        if (feedback) {
          feedback.hidden = !input.checked;
        }
      }
    },
    shuffle(question, spec) {
      if (data.shuffle && spec.shuffle) {
        const list = question.querySelector(".options");
        list.append(...shuffled(list.children));
      }
    },
  };

  const typed = (grade) => ({
    read: (question) => question.querySelector(".response input").value,
    answered: filled,
    grade: (response, spec) => (grade(response, spec) ? 1 : 0),
    show() {}, // the field keeps the answer; the verdict says what it is worth
    shuffle() {},
  });

  const GAPS = {
    short_answer: gradeText,
    numerical: gradeNumber,
    single_choice: (value, spec) => value === spec.answer,
  };

  // Moodle's multianswer: each gap graded by its own type, all gaps weighing the same.
  function gradeGaps(gaps, spec) {
    const byId = new Map(gaps.map((gap) => [gap.key, gap.value]));
    return share(
      spec.gaps.map((gap) => filled(byId.get(gap.id)) && GAPS[gap.type](byId.get(gap.id), gap)),
    );
  }

  const TYPES = {
    single_choice: choice,
    multiple_choice: choice,
    true_false: choice,
    numerical: typed(gradeNumber),
    short_answer: typed(gradeText),
    matching: {
      read: (question) => parts(question, ".pair select", "pair"),
      answered: (pairs) => pairs.some((pair) => filled(pair.value)),
      // qtype_match: the share of items given their match.
      grade: (pairs) => share(pairs.map((pair) => pair.value === pair.key)),
      show(question, spec, pairs) {
        for (const pair of pairs) {
          mark(pair.field, pair.value === pair.key);
        }
      },
      shuffle(question, spec) {
        if (data.shuffle && spec.shuffle) {
          const selects = question.querySelectorAll(".pair select");
          const order = shuffled(choicesOf(selects[0]));
          selects.forEach((select) => shuffleSelect(select, order));
        }
      },
    },
    ordering: {
      // The order the learner put the items in; null while they moved none.
      read: (question) =>
        touched.has(question)
          ? Array.from(question.querySelectorAll(".item"), (li) => li.dataset.item)
          : null,
      answered: (order) => order !== null,
      // qtype_ordering, "absolute position": the share of items in their right place.
      grade: (order, spec) => share(spec.order.map((id, position) => order[position] === id)),
      show(question, spec, order) {
        if (order === null) {
          return; // no marks on an order the learner did not give
        }
        question.querySelectorAll(".item").forEach((item, position) => {
          mark(item.querySelector(".text"), spec.order[position] === item.dataset.item);
        });
      },
      shuffle(question) {
        touched.delete(question);
        const list = question.querySelector(".order");
        const written = specOf(question).order.join();
        let order = shuffled(list.children);
        while (order.length > 1 && order.map((li) => li.dataset.item).join() === written) {
          order = shuffled(list.children); // never start in the right order
        }
        list.append(...order);
        updateMoves(list);
      },
    },
    cloze: {
      read: (question) => parts(question, ".gap", "gap"),
      answered: (gaps) => gaps.some((gap) => filled(gap.value)),
      grade: gradeGaps,
      show(question, spec, gaps) {
        const byId = new Map(spec.gaps.map((gap) => [gap.id, gap]));
        for (const gap of gaps) {
          const key = byId.get(gap.key);
          mark(gap.field, filled(gap.value) && GAPS[key.type](gap.value, key));
        }
      },
      shuffle(question, spec) {
        if (data.shuffle && spec.shuffle) {
          for (const select of question.querySelectorAll("select.gap")) {
            shuffleSelect(select, shuffled(choicesOf(select)));
          }
        }
      },
    },
    essay: {
      read: (question) => question.querySelector("textarea").value,
      answered: filled,
      grade: null,
      show() {},
      shuffle() {},
    },
  };

  // Ordering: "Move up" and "Move down" on each item; the first and last say they cannot,
  // and stay focusable, so that focus never jumps. A screen reader hears the new position.
  function updateMoves(list) {
    const items = Array.from(list.children);
    items.forEach((item, index) => {
      item.querySelector(".up").setAttribute("aria-disabled", String(index === 0));
      item.querySelector(".down").setAttribute("aria-disabled", String(index === items.length - 1));
    });
  }

  // An element's text as a screen reader says it: an image as its alt text, a formula as its
  // TeX (its aria-label), not the bare digits and letters of its MathML.
  function spokenText(element) {
    const copy = element.cloneNode(true);
    for (const image of copy.querySelectorAll("img")) {
      image.replaceWith(image.alt);
    }
    for (const formula of copy.querySelectorAll("math[aria-label]")) {
      formula.replaceWith(formula.getAttribute("aria-label"));
    }
    return copy.textContent;
  }

  function move(button) {
    const item = button.closest(".item");
    const list = item.parentElement;
    const sibling = button.classList.contains("up")
      ? item.previousElementSibling
      : item.nextElementSibling;
    if (!sibling || button.disabled) {
      return;
    }
    if (sibling === item.previousElementSibling) {
      sibling.before(item);
    } else {
      sibling.after(item);
    }
    updateMoves(list);
    touched.add(item.closest(".question"));
    button.focus();
    const position = Array.from(list.children).indexOf(item) + 1;
    fill(item.closest(".question").querySelector(".announce"), data.moved, {
      item: spokenText(item.querySelector(".text")),
      position: formatNumber(position),
      total: formatNumber(list.children.length),
    });
  }

  function countWords(textarea) {
    const words = (textarea.value.match(/\S+/gu) || []).length;
    const count = textarea.closest(".response").querySelector(".count");
    fill(count, data.words, { count: formatNumber(words) });
  }

  // After Submit the fields keep the answer but take no more input: text stays readable.
  function lock(question, locked) {
    for (const field of question.querySelectorAll("input, select, textarea, button")) {
      if (field.matches("input[type=text], textarea")) {
        field.readOnly = locked;
      } else {
        field.disabled = locked;
      }
    }
  }

  function showAnswer(question, shown) {
    const answer = question.querySelector(".answer");
    answer.classList.toggle("is-shown", shown);
    answer.open = shown;
  }

  // Moodle's graded states: right above 0.999999, wrong below 0.000001, else partly right.
  // A question left blank is "not answered", not "incorrect"; it scores nothing either way.
  function verdictOf(answered, fraction) {
    if (!answered) {
      return "unanswered";
    }
    return fraction > 0.999999 ? "right" : fraction < 0.000001 ? "wrong" : "partial";
  }

  // Grade one question and show the result; null for an essay, which is not scored here.
  function showResult(question) {
    const spec = specOf(question);
    const handler = TYPES[spec.type];
    const response = handler.read(question);
    const answered = handler.answered(response);
    handler.show(question, spec, response);
    lock(question, true);
    showAnswer(question, true);
    if (!handler.grade) {
      question.querySelector(".verdict.unscored").hidden = false;
      return null;
    }
    // Moodle keeps a fraction to seven decimals.
    const fraction = answered ? Math.round(handler.grade(response, spec) * 1e7) / 1e7 : 0;
    const verdict = verdictOf(answered, fraction);
    question.classList.add(`is-${verdict}`);
    question.querySelector(`.verdict.${verdict}`).hidden = false;
    const points = question.querySelector(".points");
    fill(points, data.points, {
      score: formatNumber(spec.points * fraction),
      total: formatNumber(spec.points),
    });
    points.hidden = false;
    return { answered, earned: spec.points * fraction, points: spec.points };
  }

  function clearResult(question) {
    question.classList.remove("is-right", "is-partial", "is-wrong", "is-unanswered");
    for (const element of question.querySelectorAll(".verdict, .feedback, .points")) {
      element.hidden = true;
    }
    for (const element of question.querySelectorAll(".mark")) {
      element.remove();
    }
    for (const option of question.querySelectorAll(".option")) {
      option.classList.remove("is-answer", "is-picked-wrong");
    }
    lock(question, false);
    showAnswer(question, false);
  }

  // Draw this attempt's questions: `data-pick` of each section's, and one variant of each
  // question with variables; the others hidden. Numbered "Question 2 of 5" as drawn when a
  // section asks only some of its questions.
  function draw() {
    for (const part of form.querySelectorAll(".part[data-pick]")) {
      const items = Array.from(part.children).filter((item) => item.dataset.question);
      const picked = new Set(shuffled(items).slice(0, Number(part.dataset.pick)));
      items.forEach((item) => {
        item.hidden = !picked.has(item);
      });
    }
    for (const variants of form.querySelectorAll(".variants")) {
      const drawn = randomIndex(variants.children.length);
      Array.from(variants.children).forEach((variant, index) => {
        variant.hidden = index !== drawn;
      });
    }
    questions = everyQuestion.filter((question) => question.closest("[hidden]") === null);
    if (data.legend) {
      questions.forEach((question, index) => {
        fill(question.querySelector("legend .number"), data.legend, {
          num: formatNumber(index + 1),
          total: formatNumber(questions.length),
        });
      });
    }
  }

  function start(question) {
    const spec = specOf(question);
    TYPES[spec.type].shuffle(question, spec);
    const textarea = question.querySelector(".words") && question.querySelector("textarea");
    if (textarea) {
      countWords(textarea);
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (submitButton.hidden) {
      return; // submitted already
    }
    let score = 0;
    let total = 0;
    let unanswered = 0;
    for (const question of questions) {
      const result = showResult(question);
      if (result) {
        score += result.earned;
        total += result.points;
        unanswered += result.answered ? 0 : 1;
      }
    }
    if (total > 0) {
      fill(scoreBox, data.score, {
        score: formatNumber(score),
        total: formatNumber(total),
        percent: formatPercent(score / total),
      });
    } else {
      scoreBox.replaceChildren();
    }
    const essays = questions.some((question) => specOf(question).type === "essay");
    for (const [shown, note] of [
      [unanswered, data.unanswered[unanswered]],
      [essays && data.essays, data.essays],
    ]) {
      if (shown) {
        const span = document.createElement("span");
        span.className = "note";
        span.textContent = scoreBox.childNodes.length ? ` · ${note}` : note;
        scoreBox.append(span);
      }
    }
    submitButton.hidden = true;
    retryButton.hidden = false;
    retryButton.focus();
  });

  // Enter in a text field moves on, it does not submit the whole quiz.
  form.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && event.target.matches("input[type=text]")) {
      event.preventDefault();
    }
  });

  form.addEventListener("click", (event) => {
    const button = event.target.closest("button.move");
    if (button) {
      move(button);
    }
  });

  form.addEventListener("input", (event) => {
    if (event.target.matches(".response textarea")) {
      countWords(event.target);
    }
  });

  retryButton.addEventListener("click", () => {
    form.reset();
    everyQuestion.forEach(clearResult);
    draw();
    questions.forEach(start);
    scoreBox.replaceChildren();
    retryButton.hidden = true;
    submitButton.hidden = false;
    questions[0].querySelector("input, select, textarea, button").focus();
  });

  draw();
  questions.forEach(start);
  submitButton.hidden = false;
})();
