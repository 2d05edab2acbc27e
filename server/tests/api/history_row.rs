//! The newest page of a conversation's history names its row as the list shows it (status,
//! holder, labels), for a client that opens a conversation its list does not hold.

use serde_json::json;

use crate::both_backends;
use crate::helpers::*;
use crate::labels::labels_path;
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
