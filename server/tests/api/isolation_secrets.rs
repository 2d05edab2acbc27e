//! An agent works the business's number without holding its secrets: no answer an agent can
//! read carries the Cloud API access token, the verify token, the app secret or a password
//! hash, and an agent cannot change them through either profile path.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::team::{CUSTOMER, customer_writes, team};

/// Every answer an agent reads in a working day, and the answers of signing in.
fn agent_reads() -> Vec<String> {
    [
        "/identity/users/profile",
        "/api/users/profile",
        "/api/auth/protected-route",
        "/api/config",
        "/api/users?status=all",
        "/api/users/counts",
        "/api/templates",
        "/api/labels",
        "/api/canned-replies",
        "/api/automated-replies",
        "/api/search?q=hello",
        "/api/push/public-key",
    ]
    .into_iter()
    .map(String::from)
    .chain([format!("/api/conversation/{CUSTOMER}")])
    .collect()
}

both_backends!(
    no_answer_to_an_agent_holds_the_business_secrets,
    |backend| async move {
        let t = team(spawn_app(backend).await, "secretkeeper").await;
        let app = &t.app;
        let owner = &t.biz.session.access;
        let verify = json!({"verifyToken": "verify-secretkeeper"});
        let (status, profile) = app.patch("/identity/users/profile", verify, owner).await;
        assert_eq!(status, 200, "{profile}");
        let access_token = profile["accessToken"].as_str().expect("token").to_string();
        let secrets = [
            access_token.as_str(),
            "verify-secretkeeper",
            t.biz.app_secret.as_str(),
            "$argon2",
        ];
        let (agent_name, agent) = ("secretkeeper-agent1", &t.agents[0].1);

        let mut answers: Vec<(String, Value)> = Vec::new();
        for path in agent_reads() {
            let (status, body) = app.get(&path, &agent.access).await;
            assert_eq!(status, 200, "{path}: {body}");
            answers.push((path, body));
        }
        let (status, login) = app.login(agent_name, PASSWORD).await;
        assert_eq!(status, 200, "{login}");
        answers.push(("login".into(), login.clone()));
        let refresh = json!({"refreshToken": login["refreshToken"]});
        let (status, refreshed) = app.post("/identity/auth/refresh", refresh, None).await;
        assert_eq!(status, 200, "{refreshed}");
        answers.push(("refresh".into(), refreshed));
        // The owner's view of the team holds no password hash either.
        let (status, agents) = app.get("/identity/users/agents", owner).await;
        assert_eq!(status, 200, "{agents}");
        answers.push(("agents".into(), agents));

        for (path, body) in &answers {
            let text = body.to_string();
            for secret in secrets {
                assert!(!text.contains(secret), "{path} shows {secret}: {text}");
            }
        }

        // Neither profile path lets an agent change the business's credentials.
        for path in ["/identity/users/profile", "/api/users/profile"] {
            for change in [
                json!({"accessToken": "stolen"}),
                json!({"appSecret": "stolen"}),
                json!({"verifyToken": "stolen"}),
                json!({"phoneNumberId": "1"}),
            ] {
                let (status, body) = app.patch(path, change.clone(), &agent.access).await;
                assert_eq!(status, 403, "{path} {change}: {body}");
                assert_eq!(body["code"], "forbidden");
            }
        }
        let (_, after) = app.get("/identity/users/profile", owner).await;
        assert_eq!(after, profile);
        // The app secret is still the one webhooks are signed with.
        customer_writes(app, &t.biz, "wamid.secretkeeper-2").await;
    }
);
