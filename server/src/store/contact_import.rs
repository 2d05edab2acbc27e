//! Importing contacts (an address book, a file, the WhatsApp Business app's shares): what is new
//! is added, what the business names otherwise is renamed, each announced, in a few statements
//! per thousand contacts rather than a few per contact, so a large import holds the write lock
//! briefly.

use std::collections::HashMap;

use parley_actors::events::Event;
use serde::Serialize;
use sqlx::{AnyConnection, AssertSqlSafe};

use super::contacts::{new_contact_draft, phone_number_id, renamed_contact_draft};
use super::error::StoreResult;
use super::events::append_events;
use super::search_index::index_contacts;
use super::{Params, Store, key_list, now_ms, rows_per_statement};

/// What a contact import changed.
#[derive(Debug, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct ImportCounts {
    pub added: u64,
    pub updated: u64,
    pub unchanged: u64,
}

/// A contact as the import leaves it: its name, whether it is new, and whether its stored row
/// changes (a new name, or a name the business now gives).
struct Imported {
    name: String,
    created: bool,
    changed: bool,
}

impl Store {
    /// Adds new numbers (each announced with `new_contact`), renames known ones whose name
    /// differs (each announced with `new_contact` marked `renamed`), counts the rest. A name
    /// imported is the business's: the customer's profile name no longer replaces it. A number
    /// listed twice is taken in order, as two imports one after the other.
    pub async fn import_contacts(
        &self,
        business_id: &str,
        contacts: &[(String, String)],
    ) -> StoreResult<(ImportCounts, Vec<Event>)> {
        let mut tx = self.begin_write().await?;
        let pnid = phone_number_id(&mut tx, business_id).await?;
        let mut phones: Vec<&str> = contacts.iter().map(|(phone, _)| phone.as_str()).collect();
        phones.sort_unstable();
        phones.dedup();
        let mut stored = stored_names(&mut tx, business_id, &phones).await?;
        let mut imported: HashMap<&str, Imported> = HashMap::with_capacity(phones.len());
        let mut counts = ImportCounts::default();
        let mut drafts = Vec::new();
        for (phone, name) in contacts {
            let ids = (None, None);
            match (imported.get_mut(phone.as_str()), stored.remove(phone)) {
                (Some(known), _) if known.name != *name => {
                    known.name.clone_from(name);
                    known.changed = true;
                    counts.updated += 1;
                    drafts.push(renamed_contact_draft(&pnid, phone, name, ids));
                }
                (Some(_), _) => counts.unchanged += 1,
                (None, None) => {
                    let new = Imported {
                        name: name.clone(),
                        created: true,
                        changed: true,
                    };
                    imported.insert(phone, new);
                    counts.added += 1;
                    drafts.push(new_contact_draft(&pnid, phone, name, ids, None));
                }
                (None, Some((old, given))) => {
                    let renamed = old != *name;
                    let known = Imported {
                        name: name.clone(),
                        created: false,
                        changed: renamed || !given,
                    };
                    imported.insert(phone, known);
                    if renamed {
                        counts.updated += 1;
                        drafts.push(renamed_contact_draft(&pnid, phone, name, ids));
                    } else {
                        counts.unchanged += 1;
                    }
                }
            }
        }
        write_imported(&mut tx, business_id, &imported).await?;
        let events = append_events(&mut tx, business_id, drafts).await?;
        tx.commit().await?;
        Ok((counts, events))
    }
}

/// The stored name of each of `phones` that is a contact, and whether the business gave it.
async fn stored_names(
    conn: &mut AnyConnection,
    business_id: &str,
    phones: &[&str],
) -> Result<HashMap<String, (String, bool)>, sqlx::Error> {
    if phones.is_empty() {
        return Ok(HashMap::new());
    }
    let sql = format!(
        "SELECT phone, name, named_by_business FROM contacts WHERE business_id = $1 AND {}",
        Params::of(conn).one_of("phone", 2)
    );
    // Only the list's text is formatted in; the values are bound.
    let rows: Vec<(String, String, i64)> = sqlx::query_as(AssertSqlSafe(sql))
        .bind(business_id)
        .bind(key_list(phones)?)
        .fetch_all(&mut *conn)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(phone, name, given)| (phone, (name, given != 0)))
        .collect())
}

/// Inserts the new contacts, names the changed ones, and indexes both for search.
async fn write_imported(
    conn: &mut AnyConnection,
    business_id: &str,
    imported: &HashMap<&str, Imported>,
) -> Result<(), sqlx::Error> {
    let (created, named): (Vec<_>, Vec<_>) = imported
        .iter()
        .filter(|(_, contact)| contact.changed)
        .partition(|(_, contact)| contact.created);
    let now = now_ms();
    for chunk in created.chunks(rows_per_statement(5)) {
        let sql = format!(
            "INSERT INTO contacts (business_id, phone, name, named_by_business, created_at) \
             VALUES {}",
            Params::of(conn).rows(chunk.len(), 5)
        );
        // Only numbered placeholders are formatted in; the values are bound.
        let mut insert = sqlx::query(AssertSqlSafe(sql));
        for (phone, contact) in chunk {
            insert = insert
                .bind(business_id)
                .bind(**phone)
                .bind(&contact.name)
                .bind(1_i64)
                .bind(now);
        }
        insert.execute(&mut *conn).await?;
    }
    for chunk in named.chunks(rows_per_statement(2) - 1) {
        let params = Params::of(conn);
        let sql = format!(
            "WITH v (phone, name) AS (VALUES {}) UPDATE contacts SET name = v.name, \
             named_by_business = 1 FROM v WHERE contacts.business_id = {} \
             AND contacts.phone = v.phone",
            params.rows(chunk.len(), 2),
            params.nth(chunk.len() * 2 + 1)
        );
        // Only numbered placeholders are formatted in; the values are bound.
        let mut update = sqlx::query(AssertSqlSafe(sql));
        for (phone, contact) in chunk {
            update = update.bind(**phone).bind(&contact.name);
        }
        update.bind(business_id).execute(&mut *conn).await?;
    }
    let phones: Vec<&str> = created
        .iter()
        .chain(&named)
        .map(|(phone, _)| **phone)
        .collect();
    index_contacts(conn, business_id, &phones).await
}
