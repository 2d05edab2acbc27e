//! The newest page of a conversation's history names its row as the list shows it (status,
//! holder, labels), for a client that opens a conversation its list does not hold. Messages of
//! one time come in one order on both backends, and page by it without gaps or repeats.

use serde_json::json;

use crate::both_backends;
use crate::collation::spawn_in_english;
use crate::helpers::*;
use crate::labels::labels_path;
use crate::search::{deliver, text_at};
use crate::search_upkeep::database;
use crate::team::{CUSTOMER, team};

both_backends!(
    the_newest_page_names_the_conversations_row_and_older_pages_do_not,
    |backend| async move {
        let t = team(spawn_app(backend).await, "history_row").await;
        let owner = &t.biz.session.access;
        let (agent_id, _) = &t.agents[0];
        let vip = t.app.label(owner, "VIP", "#D93F0B").await;
        let (status, body) = t
            .app
            .put(&labels_path(CUSTOMER), json!({"labels": [vip]}), owner)
            .await;
        assert_eq!(status, 200, "{body}");
        let path = format!("/api/conversation/{CUSTOMER}/assignment");
        let (status, body) = t
            .app
            .patch(&path, json!({"assignee_id": agent_id}), owner)
            .await;
        assert_eq!(status, 200, "{body}");
        let path = format!("/api/conversation/{CUSTOMER}/status");
        let (status, body) = t
            .app
            .patch(&path, json!({"status": "resolved"}), owner)
            .await;
        assert_eq!(status, 200, "{body}");

        let (status, history) = t
            .app
            .get(&format!("/api/conversation/{CUSTOMER}"), owner)
            .await;
        assert_eq!(status, 200, "{history}");
        let row = &history["conversation"];
        assert_eq!(row["phone_number"], CUSTOMER, "{history}");
        assert_eq!(row["status"], "resolved");
        assert_eq!(row["assignee"]["id"], json!(agent_id));
        assert_eq!(row["labels"][0]["name"], "VIP");
        assert_eq!(row["conversation_id"], history["conversation_id"]);

        let oldest = history["messages"][0]["timestamp"]
            .as_str()
            .expect("a time");
        let (status, older) = t
            .app
            .get(
                &format!("/api/conversation/{CUSTOMER}?before_timestamp={oldest}"),
                owner,
            )
            .await;
        assert_eq!(status, 200, "{older}");
        assert!(older.get("conversation").is_none(), "{older}");

        let (status, nobody) = t.app.get("/api/conversation/4915100000000", owner).await;
        assert_eq!(status, 200, "{nobody}");
        assert_eq!(nobody["messages"], json!([]));
        assert!(nobody.get("conversation").is_none(), "{nobody}");
    }
);

/// The ids of a page of history, oldest first, and the cursor of the page before it.
async fn history_ids(app: &TestApp, token: &str, query: &str) -> (Vec<String>, bool, String) {
    let (status, page) = app
        .get(&format!("/api/conversation/{SAME_TIME}?{query}"), token)
        .await;
    assert_eq!(status, 200, "{page}");
    let messages = page["messages"].as_array().expect("messages");
    let ids = messages
        .iter()
        .map(|m| m["message_id"].as_str().expect("an id").to_string())
        .collect();
    let cursor = messages.first().map_or(String::new(), |oldest| {
        let at = oldest["timestamp"].as_str().expect("a time");
        let at: String = url::form_urlencoded::byte_serialize(at.as_bytes()).collect();
        format!(
            "before_timestamp={at}&before_id={}",
            oldest["message_id"].as_str().expect("an id")
        )
    });
    (ids, page["has_more_older"] == true, cursor)
}

const SAME_TIME: &str = "16505550123";

both_backends!(
    messages_of_one_time_come_by_id_and_page_without_gaps_or_repeats,
    |backend| async move {
        let app = spawn_in_english(backend).await;
        let biz = app.business("same_time").await;
        let ids = ["wamid.a", "wamid.B", "wamid.C", "wamid.b"];
        let messages = ids
            .iter()
            .map(|id| text_at(SAME_TIME, id, "same second", 0))
            .collect();
        deliver(&app, &biz, SAME_TIME, messages).await;
        // History stored before times were kept apart (or written by two writers at once) may
        // hold one time several times.
        let pool = database(&app).await;
        sqlx::query("UPDATE messages SET sent_at = 1763700000000 WHERE phone = $1")
            .bind(SAME_TIME)
            .execute(&pool)
            .await
            .expect("one time for all");
        let token = &biz.session.access;
        // By id in byte order on both backends (an English collation puts `a` before `B`).
        let (all, _, _) = history_ids(&app, token, "limit=10").await;
        assert_eq!(all, ["wamid.B", "wamid.C", "wamid.a", "wamid.b"]);
        let mut seen = Vec::new();
        let mut query = "limit=1".to_string();
        loop {
            let (page, more, cursor) = history_ids(&app, token, &query).await;
            seen.splice(0..0, page);
            if !more {
                break;
            }
            query = format!("limit=1&{cursor}");
        }
        assert_eq!(seen, all, "each message once, in the same order");
    }
);
