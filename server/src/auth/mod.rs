//! The identity service under `/identity`, and the bearer-token check the main API uses.
//!
//! - `error`: what the identity services refuse
//! - `tokens`: access JWTs and rotating refresh tokens
//! - `password`: argon2id hashing
//! - `rules`: what usernames, emails and passwords must be
//! - `throttle`: login and registration lockouts
//! - `extract`: the `Auth` extractor
//! - `token_versions`: the token version each access token must carry, known per node
//! - `revocation`: ends a user's sessions everywhere
//! - `handlers`: register, login, refresh, logout, the session check
//! - `google`: Google ID tokens checked against the issuer's keys
//! - `google_sign_in`: Google sign-in (browser code flow and native ID token)
//! - `profile`: profile, language and agents

pub mod error;
pub mod extract;
pub mod google;
pub mod google_sign_in;
pub mod handlers;
pub mod password;
pub mod profile;
pub mod profile_json;
pub mod revocation;
pub mod rules;
pub mod throttle;
pub mod token_versions;
pub mod tokens;

use actix_web::web;

/// Routes mounted under `/identity`.
pub fn identity_routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/auth/register", web::post().to(handlers::register))
        .route("/auth/login", web::post().to(handlers::login))
        .route("/auth/refresh", web::post().to(handlers::refresh))
        .route("/auth/logout", web::post().to(handlers::logout))
        .route("/auth/logout-all", web::post().to(handlers::logout_all))
        .route(
            "/auth/protected-route",
            web::get().to(handlers::identity_protected_route),
        )
        .route("/auth/google", web::get().to(google_sign_in::start))
        .route(
            "/auth/google/callback",
            web::get().to(google_sign_in::callback),
        )
        .route(
            "/auth/google/mobile",
            web::post().to(google_sign_in::mobile),
        )
        .route("/auth/google/config", web::get().to(google_sign_in::config))
        .route("/users/profile", web::get().to(profile::get_profile))
        .route("/users/profile", web::patch().to(profile::update_profile))
        .route("/users/agents", web::get().to(profile::list_agents))
        .route("/users/agents", web::post().to(profile::create_agent))
        .route("/users/agents/{id}", web::patch().to(profile::update_agent))
        .route(
            "/users/agents/{id}",
            web::delete().to(profile::delete_agent),
        );
}
