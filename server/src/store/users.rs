use sqlx::FromRow;

use super::businesses::{ProviderCredentials, insert_business};
use super::error::{Error, StoreResult};
use super::{Store, is_unique_violation, now_ms};

/// An owner (`admin`) or agent of one business.
#[derive(Clone, FromRow)]
pub struct User {
    pub id: String,
    pub business_id: String,
    /// `admin` for the owner, `agent` for the staff the owner creates.
    pub role: String,
    pub first_name: String,
    pub last_name: String,
    /// Lower-case, no whitespace.
    pub username: String,
    /// Lower-case.
    pub email: String,
    /// argon2id PHC string; `None` for accounts made through Google.
    pub password_hash: Option<String>,
    /// `en` or `ar`.
    pub language: String,
    /// Carried by the user's access tokens; raised to refuse every token issued before.
    pub token_version: i64,
}

impl User {
    /// The name the inbox shows for this user: first and last name.
    pub fn full_name(&self) -> String {
        format!("{} {}", self.first_name, self.last_name)
            .trim()
            .to_string()
    }
}

impl std::fmt::Debug for User {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("User")
            .field("id", &self.id)
            .field("business_id", &self.business_id)
            .field("role", &self.role)
            .finish_non_exhaustive()
    }
}

/// Fields of a user to create.
pub struct NewUser {
    pub first_name: String,
    pub last_name: String,
    pub username: String,
    pub email: String,
    pub password_hash: Option<String>,
    pub google_sub: Option<String>,
}

/// Changes to a user; `None` keeps the field.
#[derive(Default)]
pub struct UserChanges {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub username: Option<String>,
    pub email: Option<String>,
    pub password_hash: Option<String>,
    pub language: Option<String>,
}

pub const ROLE_OWNER: &str = "admin";
pub const ROLE_AGENT: &str = "agent";

macro_rules! user_columns {
    () => {
        "id, business_id, role, first_name, last_name, username, email, password_hash, language, \
         token_version"
    };
}

fn duplicate_error(err: sqlx::Error) -> Error {
    if is_unique_violation(&err) {
        Error::Conflict("Username or email already exists".into())
    } else {
        err.into()
    }
}

impl Store {
    /// Creates a business and its owner in one transaction.
    pub async fn register_owner(
        &self,
        new: NewUser,
        business_name: &str,
        creds: ProviderCredentials,
    ) -> StoreResult<User> {
        self.ensure_unique(&new.username, &new.email, None).await?;
        let mut tx = self.pool.begin().await?;
        let business_id = uuid::Uuid::new_v4().to_string();
        insert_business(&mut tx, &business_id, business_name, &creds)
            .await
            .map_err(duplicate_error)?;
        let user = insert_user(&mut tx, &business_id, ROLE_OWNER, new)
            .await
            .map_err(duplicate_error)?;
        tx.commit().await?;
        Ok(user)
    }

    pub async fn insert_agent(&self, business_id: &str, new: NewUser) -> StoreResult<User> {
        self.ensure_unique(&new.username, &new.email, None).await?;
        let mut conn = self.pool.acquire().await?;
        insert_user(&mut conn, business_id, ROLE_AGENT, new)
            .await
            .map_err(duplicate_error)
    }

    /// 409 naming what is taken, so the form can say which field to change.
    async fn ensure_unique(
        &self,
        username: &str,
        email: &str,
        except_user: Option<&str>,
    ) -> StoreResult<()> {
        let rows: Vec<(String, String)> =
            sqlx::query_as("SELECT id, username FROM users WHERE username = $1 OR email = $2")
                .bind(username)
                .bind(email)
                .fetch_all(&self.pool)
                .await?;
        match rows.iter().find(|(id, _)| Some(id.as_str()) != except_user) {
            Some((_, taken)) if taken == username => {
                Err(Error::Conflict("Username already exists".into()))
            }
            Some(_) => Err(Error::Conflict("Email already exists".into())),
            None => Ok(()),
        }
    }

    /// Looks a user up by username or email (both stored lower-case).
    pub async fn user_by_login(&self, identifier: &str) -> StoreResult<Option<User>> {
        let key = identifier.trim().to_lowercase();
        Ok(sqlx::query_as(concat!(
            "SELECT ",
            user_columns!(),
            " FROM users WHERE username = $1 OR email = $2"
        ))
        .bind(&key)
        .bind(&key)
        .fetch_optional(&self.pool)
        .await?)
    }

    /// The account of a Google identity: the one linked to `sub`, else an account with this
    /// (verified) email that no Google identity claims yet, which is linked to `sub` now.
    pub async fn user_by_google(&self, sub: &str, email: &str) -> StoreResult<Option<User>> {
        let linked: Option<User> = sqlx::query_as(concat!(
            "SELECT ",
            user_columns!(),
            " FROM users WHERE google_sub = $1"
        ))
        .bind(sub)
        .fetch_optional(&self.pool)
        .await?;
        if linked.is_some() {
            return Ok(linked);
        }
        let by_email: Option<User> = sqlx::query_as(concat!(
            "SELECT ",
            user_columns!(),
            " FROM users WHERE email = $1 AND google_sub IS NULL"
        ))
        .bind(email)
        .fetch_optional(&self.pool)
        .await?;
        if let Some(user) = &by_email {
            sqlx::query("UPDATE users SET google_sub = $1 WHERE id = $2 AND google_sub IS NULL")
                .bind(sub)
                .bind(&user.id)
                .execute(&self.pool)
                .await
                .map_err(duplicate_error)?;
        }
        Ok(by_email)
    }

    /// A user of this business; another business's user is "not found".
    pub async fn user(&self, business_id: &str, user_id: &str) -> StoreResult<User> {
        sqlx::query_as(concat!(
            "SELECT ",
            user_columns!(),
            " FROM users WHERE business_id = $1 AND id = $2"
        ))
        .bind(business_id)
        .bind(user_id)
        .fetch_optional(&self.pool)
        .await?
        .ok_or_else(|| Error::NotFound("User not found".into()))
    }

    pub async fn agents(&self, business_id: &str) -> StoreResult<Vec<User>> {
        let mut team = self.team(business_id).await?;
        team.retain(|user| user.role == ROLE_AGENT);
        Ok(team)
    }

    /// Everyone of the business, the owner and the agents, oldest first.
    pub async fn team(&self, business_id: &str) -> StoreResult<Vec<User>> {
        Ok(sqlx::query_as(concat!(
            "SELECT ",
            user_columns!(),
            " FROM users WHERE business_id = $1 ORDER BY created_at, id"
        ))
        .bind(business_id)
        .fetch_all(&self.pool)
        .await?)
    }

    pub async fn update_user(
        &self,
        business_id: &str,
        user_id: &str,
        changes: UserChanges,
    ) -> StoreResult<User> {
        let current = self.user(business_id, user_id).await?;
        let username = changes.username.unwrap_or(current.username);
        let email = changes.email.unwrap_or(current.email);
        self.ensure_unique(&username, &email, Some(user_id)).await?;
        sqlx::query(
            "UPDATE users SET first_name = $1, last_name = $2, username = $3, email = $4, \
             password_hash = $5, language = $6 WHERE business_id = $7 AND id = $8",
        )
        .bind(changes.first_name.unwrap_or(current.first_name))
        .bind(changes.last_name.unwrap_or(current.last_name))
        .bind(username)
        .bind(email)
        .bind(changes.password_hash.or(current.password_hash))
        .bind(changes.language.unwrap_or(current.language))
        .bind(business_id)
        .bind(user_id)
        .execute(&self.pool)
        .await
        .map_err(duplicate_error)?;
        self.user(business_id, user_id).await
    }

    /// Deletes an agent of this business; owners cannot be deleted this way.
    pub async fn delete_agent(&self, business_id: &str, user_id: &str) -> StoreResult<()> {
        let done =
            sqlx::query("DELETE FROM users WHERE business_id = $1 AND id = $2 AND role = $3")
                .bind(business_id)
                .bind(user_id)
                .bind(ROLE_AGENT)
                .execute(&self.pool)
                .await?;
        if done.rows_affected() == 0 {
            return Err(Error::NotFound("Agent not found".into()));
        }
        Ok(())
    }
}

async fn insert_user(
    conn: &mut sqlx::AnyConnection,
    business_id: &str,
    role: &str,
    new: NewUser,
) -> Result<User, sqlx::Error> {
    let id = uuid::Uuid::new_v4().to_string();
    sqlx::query(
        "INSERT INTO users (id, business_id, role, first_name, last_name, username, email, \
         password_hash, language, google_sub, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(&id)
    .bind(business_id)
    .bind(role)
    .bind(&new.first_name)
    .bind(&new.last_name)
    .bind(&new.username)
    .bind(&new.email)
    .bind(new.password_hash.clone())
    .bind("en")
    .bind(new.google_sub.clone())
    .bind(now_ms())
    .execute(&mut *conn)
    .await?;
    Ok(User {
        id,
        business_id: business_id.to_string(),
        role: role.to_string(),
        first_name: new.first_name,
        last_name: new.last_name,
        username: new.username,
        email: new.email,
        password_hash: new.password_hash,
        language: "en".into(),
        token_version: 0,
    })
}

impl Store {
    /// The user a refresh token belongs to; the token itself is the proof of tenancy.
    pub async fn user_by_id(&self, user_id: &str) -> StoreResult<User> {
        sqlx::query_as(concat!(
            "SELECT ",
            user_columns!(),
            " FROM users WHERE id = $1"
        ))
        .bind(user_id)
        .fetch_optional(&self.pool)
        .await?
        .ok_or_else(|| Error::NotFound("Account no longer exists".into()))
    }
}
