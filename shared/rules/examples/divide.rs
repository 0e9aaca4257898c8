use missive_rules::{Notation, registry::variant};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let g = variant("chess").unwrap().new_game("", Some(&a[1])).unwrap();
    for (m, n) in g.divide(a[2].parse().unwrap()) {
        println!("{m} {n}");
    }
    let _ = Notation::Long;
}
