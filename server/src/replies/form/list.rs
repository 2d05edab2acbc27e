//! The interactive list a reply sends: its texts, sections and rows within the Cloud API's limits.

use std::collections::HashSet;

use serde_json::Value;

use super::{FormResult, invalid, text};

pub const SECTIONS_MAX: usize = 10;
pub const ROWS_MAX: usize = 10;

/// Checks a text field of the list: required or not, and within the Cloud API's limit.
fn list_text(value: &Value, key: &str, label: &str, required: bool, max: usize) -> FormResult<()> {
    let found = text(value, key);
    if required && found.is_empty() {
        return invalid(format!("{label} is required"));
    }
    if found.chars().count() > max {
        return invalid(format!("{label} must be at most {max} characters"));
    }
    Ok(())
}

/// The interactive list: header, body and button label required, 1–10 sections of 1–10 rows,
/// each section titled, each row with an id and a title.
pub fn check_list(list: &Value) -> FormResult<()> {
    if !list.is_object() {
        return invalid("The interactive list is required");
    }
    if !matches!(text(list, "type"), "" | "list") {
        return invalid("Only interactive lists are supported");
    }
    let none = Value::Null;
    list_text(
        list.get("header").unwrap_or(&none),
        "text",
        "List header text",
        true,
        60,
    )?;
    list_text(
        list.get("body").unwrap_or(&none),
        "text",
        "List body text",
        true,
        1024,
    )?;
    list_text(
        list.get("footer").unwrap_or(&none),
        "text",
        "List footer text",
        false,
        60,
    )?;
    let action = list.get("action").unwrap_or(&none);
    list_text(action, "button", "List button label", true, 20)?;
    let sections = action
        .get("sections")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    if sections.is_empty() {
        return invalid("A list needs at least one section");
    }
    if sections.len() > SECTIONS_MAX {
        return invalid("A list can have at most 10 sections");
    }
    let mut ids = HashSet::new();
    for (i, section) in sections.iter().enumerate() {
        let n = i + 1;
        list_text(section, "title", &format!("Section {n} title"), true, 24)?;
        let rows = section
            .get("rows")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        if rows.is_empty() {
            return invalid(format!("Section {n} needs at least one row"));
        }
        if rows.len() > ROWS_MAX {
            return invalid(format!("Section {n} can have at most 10 rows"));
        }
        for (j, row) in rows.iter().enumerate() {
            let m = j + 1;
            if text(row, "id").is_empty() || text(row, "title").is_empty() {
                return invalid(format!("Section {n}, row {m} needs an id and a title"));
            }
            list_text(row, "id", &format!("Section {n}, row {m} id"), true, 200)?;
            list_text(
                row,
                "title",
                &format!("Section {n}, row {m} title"),
                true,
                24,
            )?;
            list_text(
                row,
                "description",
                &format!("Section {n}, row {m} description"),
                false,
                72,
            )?;
            if !ids.insert(text(row, "id").to_string()) {
                return invalid("List row ids must be unique");
            }
        }
    }
    Ok(())
}

/// The ids a list's rows send back.
pub(super) fn list_row_ids(list: &Value) -> Vec<String> {
    list.pointer("/action/sections")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|s| s.get("rows").and_then(Value::as_array))
        .flatten()
        .map(|r| text(r, "id").to_string())
        .collect()
}
