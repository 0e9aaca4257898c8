//! Tap to move, as progressive enhancement of the move page: with JavaScript, touching a
//! piece on the board marks the spots it can go to, and touching one of them names that
//! move in the move field and goes on to the confirmation step (the form sent with
//! `action=move`), as the button would. When several legal moves share the two spots (a
//! promotion's pieces, a dynamo push's landings, an attack board arriving turned or not),
//! a button for each is offered instead and the player picks one. Without JavaScript the
//! page is unchanged: the move is typed.
//!
//! The page carries the legal moves as JSON (`<script type="application/json"
//! id="tap-moves">`): `[short, [from spots], to spot]` for each, the spots named as the
//! board's `data-spot` attributes name them (see `missive_board::render`), from
//! [`AnyGame::legal_ends`].

use missive_rules::AnyGame;

/// Marks the spots, fills the field and sends the form; see the module's description.
const SCRIPT: &str = r#"(function () {
  var data = document.getElementById('tap-moves');
  var board = document.querySelector('section.board svg');
  var form = document.querySelector('form.move');
  if (!data || !board || !form) return;
  var moves = JSON.parse(data.textContent);
  var field = form.querySelector('#move');
  var play = form.querySelector('#play');
  var choices = document.createElement('div');
  choices.className = 'tap-choices actions';
  choices.hidden = true;
  form.insertBefore(choices, form.firstChild);
  var chosen = null;
  function starting(spot) {
    return moves.filter(function (m) { return m[1].indexOf(spot) >= 0; });
  }
  function mark(name, spots) {
    board.querySelectorAll('.' + name).forEach(function (e) { e.classList.remove(name); });
    board.querySelectorAll('.spot').forEach(function (e) {
      if (spots.indexOf(e.getAttribute('data-spot')) >= 0) e.classList.add(name);
    });
  }
  function choose(text) {
    field.value = text;
    play.click();
  }
  function offer(list) {
    choices.textContent = '';
    list.forEach(function (m) {
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'tap-choice';
      button.textContent = m[0];
      button.addEventListener('click', function () { choose(m[0]); });
      choices.appendChild(button);
    });
    choices.hidden = false;
  }
  function select(spot) {
    var list = spot === null ? [] : starting(spot);
    chosen = list.length ? spot : null;
    mark('tap-from', chosen === null ? [] : [chosen]);
    mark('tap-to', list.map(function (m) { return m[2]; }));
    choices.hidden = true;
  }
  board.addEventListener('click', function (event) {
    var target = event.target.closest('[data-spot]');
    if (!target) return;
    var spot = target.getAttribute('data-spot');
    var ending = chosen === null ? [] : starting(chosen).filter(function (m) {
      return m[2] === spot;
    });
    if (ending.length === 1) return choose(ending[0][0]);
    if (ending.length > 1) return offer(ending);
    select(spot === chosen ? null : spot);
  });
  board.classList.add('tappable');
})();"#;

/// The move page's tap to move: the legal moves of `game` as JSON and the script that
/// reads them (markup for the end of the page's move form).
pub fn script(game: &dyn AnyGame) -> String {
    let moves: Vec<(String, Vec<String>, String)> = game
        .legal_ends()
        .into_iter()
        .map(|m| (m.short, m.ends.from, m.ends.to))
        .collect();
    // `<` never starts markup inside the script element: JSON may write it escaped.
    let json = serde_json::to_string(&moves)
        .unwrap_or_else(|_| "[]".to_string())
        .replace('<', "\\u003c");
    format!(
        "<script type=\"application/json\" id=\"tap-moves\">{json}</script><script>{SCRIPT}\
         </script>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use missive_rules::registry;

    #[test]
    fn the_moves_are_listed_with_their_spots() {
        let game = registry::variant("chess")
            .and_then(|v| v.new_game("", None))
            .expect("chess starts");
        let html = script(game.as_ref());
        assert!(html.contains(r#"["e4",["e2"],"e4"]"#), "{html}");
        assert!(html.contains(r#"["Nf3",["g1"],"f3"]"#), "{html}");
        let json = html
            .strip_prefix("<script type=\"application/json\" id=\"tap-moves\">")
            .and_then(|rest| rest.split("</script>").next())
            .expect("the JSON script");
        let moves: Vec<(String, Vec<String>, String)> = serde_json::from_str(json).unwrap();
        assert_eq!(moves.len(), 20);
    }
}
