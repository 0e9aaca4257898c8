//! Prints the perft count below each legal move: `divide <variant> <depth> [position] [moves...]`.
use missive_rules::registry::variant;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let position = a.get(3).filter(|p| !p.is_empty()).map(String::as_str);
    let mut g = variant(&a[1]).unwrap().new_game("", position).unwrap();
    for mv in a.iter().skip(4) {
        g.play(mv).unwrap();
    }
    let mut total = 0;
    for (m, n) in g.divide(a[2].parse().unwrap()) {
        println!("{m} {n}");
        total += n;
    }
    println!("total {total}");
}
