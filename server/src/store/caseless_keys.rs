//! The keys that make label names and canned-reply shortcuts unique in their business, folded
//! again by today's rules (`caseless_key`), once, at the first start that has this pass: a key
//! stored by an older rule (lower case
//! only, where `Straße` stayed `straße`) would let `STRASSE` in beside it. Two rows whose keys now
//! fold alike both stay: the one stored first keeps the key, and the other's key gets a line break
//! and its id after it, which no name or shortcut folds to (a name's line breaks are read as
//! spaces, a shortcut has none). So both stay listed, usable and renamable, and a new name of that
//! key is refused as taken by the first.

use std::collections::HashSet;

use sqlx::{AnyConnection, AssertSqlSafe};

use super::Store;
use crate::search_text::caseless_key;

/// The one-time pass's name in `search_backfills`.
const PASS: &str = "caseless_keys";

/// Each keyed table: its name, the column as typed, and its key column.
const KEYED: [(&str, &str, &str); 2] = [
    ("labels", "name", "name_key"),
    ("canned_replies", "shortcut", "shortcut_key"),
];

/// A row's business, id, text as typed, stored key and when it was stored.
type KeyedRow = (String, String, String, String, i64);

impl Store {
    /// Folds every stored key again, rewriting those that change, in one transaction per table;
    /// once (a one-time pass of `search_backfill`): keys stored since are folded by today's rules.
    pub(super) async fn refold_keys(&self) -> Result<(), sqlx::Error> {
        if !self.backfill_pending(PASS).await? {
            return Ok(());
        }
        for (table, text, key) in KEYED {
            let mut tx = self.begin_write().await?;
            refold_table(&mut tx, table, text, key).await?;
            tx.commit().await?;
        }
        self.backfill_done(PASS).await
    }
}

/// Folds one table's keys again. The changed rows first take a key of their own (`\n` and their
/// id), so no row's new key meets one that is about to change.
async fn refold_table(
    conn: &mut AnyConnection,
    table: &str,
    text: &str,
    key: &str,
) -> Result<(), sqlx::Error> {
    let select = format!("SELECT business_id, id, {text}, {key}, created_at FROM {table}");
    let mut rows: Vec<KeyedRow> = sqlx::query_as(AssertSqlSafe(select))
        .fetch_all(&mut *conn)
        .await?;
    // Sorted here: the backends order text by different collations.
    rows.sort_by(|a, b| (&a.0, a.4, &a.1).cmp(&(&b.0, b.4, &b.1)));
    let changed = refolded(&rows);
    let update = format!("UPDATE {table} SET {key} = $1 WHERE business_id = $2 AND id = $3");
    for step in [Step::Aside, Step::Final] {
        for (business_id, id, wanted) in &changed {
            let value = match step {
                Step::Aside => format!("\n{id}"),
                Step::Final => wanted.clone(),
            };
            sqlx::query(AssertSqlSafe(update.as_str()))
                .bind(value)
                .bind(business_id)
                .bind(id)
                .execute(&mut *conn)
                .await?;
        }
    }
    Ok(())
}

/// The two passes of the rewrite.
#[derive(Clone, Copy)]
enum Step {
    Aside,
    Final,
}

/// The rows (business, id, key) whose key changes, of `rows` in the order they were stored: each
/// takes its text's key, unless a row stored before it in its business took it.
fn refolded(rows: &[KeyedRow]) -> Vec<(String, String, String)> {
    let mut taken: HashSet<(&str, String)> = HashSet::new();
    let mut changed = Vec::new();
    for (business_id, id, text, stored, _) in rows {
        let mut wanted = caseless_key(text);
        if !taken.insert((business_id, wanted.clone())) {
            wanted = format!("{wanted}\n{id}");
        }
        if wanted != *stored {
            changed.push((business_id.clone(), id.clone(), wanted));
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(business: &str, id: &str, text: &str, stored: &str, at: i64) -> KeyedRow {
        let own = |s: &str| s.to_string();
        (own(business), own(id), own(text), own(stored), at)
    }

    #[test]
    fn keys_of_older_rules_are_folded_and_the_later_of_two_that_meet_keeps_its_own() {
        let rows = [
            row("b1", "l1", "Straße", "straße", 1),
            row("b1", "l2", "STRASSE", "strasse", 2),
            row("b1", "l3", "VIP", "vip", 3),
            row("b2", "l4", "Straße", "straße", 4),
        ];
        assert_eq!(
            refolded(&rows),
            [
                ("b1".into(), "l1".into(), "strasse".into()),
                ("b1".into(), "l2".into(), "strasse\nl2".into()),
                ("b2".into(), "l4".into(), "strasse".into()),
            ]
        );
    }
}
