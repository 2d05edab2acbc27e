//! The business's team settings in the profile: everyone reads them, the owner writes them.

use serde_json::json;

use crate::both_backends;
use crate::helpers::*;
use crate::team::agent;

both_backends!(
    team_settings_are_read_by_all_and_written_by_the_owner_only,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("settings_owner").await;
        let (_, helper) = agent(&app, &owner, "settings-agent").await;
        for path in ["/identity/users/profile", "/api/users/profile"] {
            let (status, profile) = app.get(path, &helper.access).await;
            assert_eq!(status, 200, "{profile}");
            assert_eq!(profile["assignment_mode"], "manual");
            assert_eq!(profile["claim_timeout_minutes"], 0);
        }
        let change = json!({"assignment_mode": "round_robin", "claim_timeout_minutes": 30});
        let (status, error) = app
            .patch("/api/users/profile", change.clone(), &helper.access)
            .await;
        assert_eq!((status, &error["code"]), (403, &json!("forbidden")));
        let (status, profile) = app
            .patch("/identity/users/profile", change, &owner.access)
            .await;
        assert_eq!(status, 200, "{profile}");
        assert_eq!(profile["assignment_mode"], "round_robin");
        assert_eq!(profile["claim_timeout_minutes"], 30);
        let (status, profile) = app
            .patch(
                "/api/users/profile",
                json!({"claim_timeout_minutes": 0}),
                &owner.access,
            )
            .await;
        assert_eq!(status, 200, "{profile}");
        assert_eq!(profile["claim_timeout_minutes"], 0);
        assert_eq!(profile["assignment_mode"], "round_robin");

        for (body, field) in [
            (json!({"assignment_mode": "random"}), "assignment_mode"),
            (
                json!({"claim_timeout_minutes": 10081}),
                "claim_timeout_minutes",
            ),
            (
                json!({"claim_timeout_minutes": -1}),
                "claim_timeout_minutes",
            ),
            (
                json!({"claim_timeout_minutes": 1.5}),
                "claim_timeout_minutes",
            ),
            (
                json!({"claim_timeout_minutes": "5"}),
                "claim_timeout_minutes",
            ),
        ] {
            let (status, error) = app
                .patch("/api/users/profile", body.clone(), &owner.access)
                .await;
            assert_eq!(status, 422, "{body}: {error}");
            assert!(
                error["detail"].as_str().expect("detail").contains(field),
                "{error}"
            );
        }
    }
);
