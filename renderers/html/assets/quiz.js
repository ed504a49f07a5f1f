// quizbank self-check quiz: scores the answers in the page and shows the verdicts, the feedback
// of the chosen options, the right answers and the explanations. No request, no framework.
// The answer key, the translated score message and every possible score, formatted by Babel
// for the page's language, come from the JSON block #quiz-data.
(() => {
  "use strict";

  const form = document.getElementById("quiz");
  const data = JSON.parse(document.getElementById("quiz-data").textContent);
  const submitButton = form.querySelector("button.submit");
  const retryButton = form.querySelector("button.retry");
  const scoreBox = form.querySelector(".score");
  const questions = Array.from(form.querySelectorAll(".question"));

  // Reorder the options of a question (Fisher-Yates); the key names options, not positions.
  // True comes before False, always: a statement's two answers are no list to shuffle.
  function shuffle(question) {
    const list = question.querySelector(".options");
    const items = Array.from(list.children);
    const values = Array.from(list.querySelectorAll("input"), (input) => input.value);
    if (values.length === 2 && values[0] === "true" && values[1] === "false") {
      return;
    }
    for (let i = items.length - 1; i > 0; i -= 1) {
      const j = Math.floor(Math.random() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    list.append(...items);
  }

  function keyOf(question) {
    return data.key[question.dataset.question];
  }

  function isRight(question) {
    const key = keyOf(question);
    const chosen = Array.from(question.querySelectorAll("input:checked"), (input) => input.value);
    return chosen.length === key.length && chosen.every((id) => key.includes(id));
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

  // A question left blank is "not answered", not "incorrect"; it scores nothing either way.
  function showResult(question) {
    const right = isRight(question);
    const answered = question.querySelector("input:checked") !== null;
    const key = keyOf(question);
    question.classList.add(right ? "is-right" : answered ? "is-wrong" : "is-unanswered");
    question.querySelector(".verdict.right").hidden = !right;
    question.querySelector(".verdict.wrong").hidden = right || !answered;
    question.querySelector(".verdict.unanswered").hidden = answered;
    for (const option of question.querySelectorAll(".option")) {
      const input = option.querySelector("input");
      const feedback = option.querySelector(".feedback");
      option.classList.toggle("is-answer", key.includes(input.value));
      option.classList.toggle("is-picked-wrong", input.checked && !key.includes(input.value));
      if (feedback) {
        feedback.hidden = !input.checked;
      }
      input.disabled = true;
    }
    const answer = question.querySelector(".answer");
    answer.classList.add("is-shown");
    answer.open = true;
    return right;
  }

  function clearResult(question) {
    question.classList.remove("is-right", "is-wrong", "is-unanswered");
    for (const element of question.querySelectorAll(".verdict, .feedback")) {
      element.hidden = true;
    }
    for (const option of question.querySelectorAll(".option")) {
      option.classList.remove("is-answer", "is-picked-wrong");
      option.querySelector("input").disabled = false;
    }
    const answer = question.querySelector(".answer");
    answer.classList.remove("is-shown");
    answer.open = false;
    if (data.shuffle) {
      shuffle(question);
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    let score = 0;
    let unanswered = 0;
    for (const question of questions) {
      if (question.querySelector("input:checked") === null) {
        unanswered += 1;
      }
      if (showResult(question)) {
        score += 1;
      }
    }
    fill(scoreBox, data.score, {
      score: data.numbers[score],
      total: data.numbers[questions.length],
      percent: data.percents[score],
    });
    if (unanswered) {
      const note = document.createElement("span");
      note.className = "unanswered";
      note.textContent = ` · ${data.unanswered[unanswered]}`;
      scoreBox.append(note);
    }
    submitButton.hidden = true;
    retryButton.hidden = false;
    retryButton.focus();
  });

  retryButton.addEventListener("click", () => {
    form.reset();
    questions.forEach(clearResult);
    scoreBox.replaceChildren();
    retryButton.hidden = true;
    submitButton.hidden = false;
    questions[0].querySelector("input").focus();
  });

  if (data.shuffle) {
    questions.forEach(shuffle);
  }
  submitButton.hidden = false;
})();
