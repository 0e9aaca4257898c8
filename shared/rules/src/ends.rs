//! Where a move begins and ends on its position's [`crate::Diagram`]: what a player picks
//! up and where they put it down when they choose a move by touching the picture.

/// The spots (named as the diagram names them) a move is picked up from and put down on.
///
/// For a piece's move, `from` holds the piece's spot and `to` its destination. Where the
/// mover itself does not end on a spot of its own (a dynamo station move, a piece pushing
/// itself off the board), `to` is where the piece it moves ends, or that piece's spot when
/// it leaves the board. An attack board (Tri-D) is picked up by any of its squares and put
/// down on the main board's corner square that holds the pin it goes to. Several legal
/// moves may share their ends (promotions, pushes of one piece to different squares).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveEnds {
    /// The spots that pick the move up, at least one.
    pub from: Vec<String>,
    /// The spot that puts it down.
    pub to: String,
}

/// A legal move in both notations with its ends on the diagram.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LegalMove {
    /// Canonical long notation.
    pub long: String,
    /// Friendly short notation.
    pub short: String,
    /// Where it begins and ends on the diagram.
    pub ends: MoveEnds,
}
