//! Customers an identity notice of a delivery moved (a new number or BSUID), and how the other
//! items of the delivery follow them to the key they are kept under now.

use parley_actors::conversation::ConversationKey;

use crate::customer::{CustomerKey, Sighting};

/// A customer whom an identity notice of the delivery (a new number or BSUID) moved: how the
/// notice named them, and the key they are kept under now.
pub(super) struct Moved {
    business_id: String,
    phone: Option<CustomerKey>,
    user_id: Option<CustomerKey>,
    to: String,
}

impl Moved {
    /// The move `sighting` made in `business_id`, settled under `to`; `None` when it moves no
    /// one.
    pub(super) fn of(business_id: &str, sighting: &Sighting, to: &str) -> Option<Moved> {
        (sighting.new_phone.is_some() || sighting.new_user_id.is_some()).then(|| Moved {
            business_id: business_id.to_string(),
            phone: sighting.phone.clone(),
            user_id: sighting.user_id.clone(),
            to: to.to_string(),
        })
    }

    /// Puts an item under the key its customer ends up under after `moves`, taken in the order
    /// they were made: a move that names its customer as it does carries it, and each later
    /// move of the key that gave it carries it on (A to B, then B to C, ends at C). One pass in
    /// that order ends even where the moves come back to a key they left (A to B, then B to A,
    /// ends at A), and a key the store gave after a move is not taken for the key it left.
    pub(super) fn follow_all(moves: &[Moved], key: &mut ConversationKey, sighting: &Sighting) {
        let mut carried = false;
        for moved in moves {
            if moved.names(key, sighting) || (carried && moved.left(key)) {
                key.phone.clone_from(&moved.to);
                carried = true;
            }
        }
    }

    /// Puts an item given its key before this move under the moved customer's new key: one that
    /// names the customer as the notice did, or that is under the key the notice moved them from.
    pub(super) fn follow(&self, key: &mut ConversationKey, sighting: &Sighting) {
        if self.names(key, sighting) || self.left(key) {
            key.phone.clone_from(&self.to);
        }
    }

    /// Whether an item of `key`'s business names the moved customer as the notice did.
    fn names(&self, key: &ConversationKey, sighting: &Sighting) -> bool {
        let same = |a: &Option<CustomerKey>, b: &Option<CustomerKey>| a.is_some() && a == b;
        key.business_id == self.business_id
            && (same(&sighting.phone, &self.phone) || same(&sighting.user_id, &self.user_id))
    }

    /// Whether `key` is the one the notice moved the customer from.
    fn left(&self, key: &ConversationKey) -> bool {
        let from =
            |old: &Option<CustomerKey>| old.as_ref().is_some_and(|old| old.as_str() == key.phone);
        key.business_id == self.business_id && (from(&self.phone) || from(&self.user_id))
    }
}
