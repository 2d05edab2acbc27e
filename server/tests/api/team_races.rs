//! Team changes racing each other: a conversation assigned to an agent while the owner removes
//! that agent never stays with someone who is gone.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::team::{CUSTOMER, agent, team};

both_backends!(
    a_conversation_assigned_while_its_agent_is_removed_is_left_unassigned,
    |backend| async move {
        let t = team(spawn_app(backend).await, "gone_race").await;
        let owner = &t.biz.session.access;
        let path = format!("/api/conversation/{CUSTOMER}/assignment");
        for round in 0..12 {
            let (id, _) = agent(&t.app, &t.biz.session, &format!("gone-race{round}")).await;
            let removal = format!("/identity/users/agents/{id}");
            let (assigned, removed) = futures_util::join!(
                t.app.patch(&path, json!({"assignee_id": id}), owner),
                t.app.delete(&removal, owner),
            );
            assert!(
                assigned.0 == 200 || assigned.0 == 422,
                "round {round}: {assigned:?}"
            );
            assert_eq!(removed.0, 200, "round {round}: {removed:?}");
            let (status, list) = t.app.get("/api/users?status=all", owner).await;
            assert_eq!(status, 200, "{list}");
            let row = &list["data"]["users"][0];
            assert_eq!(row["assignee"], Value::Null, "round {round}: {row}");
        }
    }
);
