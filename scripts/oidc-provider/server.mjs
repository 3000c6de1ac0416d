// A real OpenID provider for allot's OIDC tests: panva/node-oidc-provider
// (package.json pins the version) on 127.0.0.1, on a free port.
//
// Usage: node server.mjs DIR
// Writes DIR/issuer (the issuer URL, once it listens) and serves until killed.
// - Clients: "allot-cli" (ID tokens RS256) and "allot-cli-es" (ES256), public
//   (no secret), the device authorization grant and the authorization code
//   grant (PKCE, which the provider requires of public clients) for the web
//   dashboard's login: native clients whose redirect URI is allotd's
//   http://127.0.0.1/ui/oidc/callback (or localhost), on any port (RFC 8252
//   section 7.3: a loopback redirect's port is not compared), so that an
//   allotd on any free port may use it.
// - Accounts (static): ada / ada-password (groups research, admins),
//   bob / bob-password (group research) and carol / carol-password (groups
//   platform-admins, research: the tests bind platform-admins to
//   cluster-admin; a "system:" group would be dropped by allotd). The login
//   form checks the password. preferred_username is the account's id.
// - Interactions are this file's own minimal pages: GET /interaction/UID
//   names the prompt (with its form, for a real browser); POST /interaction/UID/login {login, password};
//   POST /interaction/UID/confirm grants what was asked.
// - The device pages (/device) are the provider's, with bare HTML around its
//   forms (hidden xsrf input).
// Keys (RSA-2048 and P-256) are generated at start, so every run rotates them.
// Their private halves are written to DIR/keys/KID.pem (PKCS#8, 0600) so that
// tests can forge tokens that only the issuer could sign (a wrong iss, an
// expired exp) and check that allotd refuses them for that reason alone.
// POST /test/rotate-keys rotates: a new RSA key (kid rsa-N, returned as
// {"kid"}) is published first and signs from then on; the old keys stay
// published, as issuers keep them while their tokens live.
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync, renameSync } from 'node:fs';
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node server.mjs DIR');
  process.exit(2);
}

const accounts = {
  ada: { password: 'ada-password', email: 'ada@example.com', name: 'Ada Lovelace', groups: ['research', 'admins'] },
  bob: { password: 'bob-password', email: 'bob@example.com', name: 'Bob', groups: ['research'] },
  carol: { password: 'carol-password', email: 'carol@example.com', name: 'Carol', groups: ['platform-admins', 'research'] },
};

mkdirSync(`${dir}/keys`, { recursive: true, mode: 0o700 });

function signingKey(type, options, kid, alg) {
  const { privateKey } = generateKeyPairSync(type, options);
  writeFileSync(`${dir}/keys/${kid}.pem`, privateKey.export({ format: 'pem', type: 'pkcs8' }),
    { mode: 0o600 });
  return { ...privateKey.export({ format: 'jwk' }), kid, alg, use: 'sig' };
}

const deviceGrant = 'urn:ietf:params:oauth:grant-type:device_code';
const client = (id, alg) => ({
  client_id: id,
  client_name: 'allot',
  application_type: 'native',
  token_endpoint_auth_method: 'none',
  grant_types: [deviceGrant, 'authorization_code'],
  response_types: ['code'],
  redirect_uris: ['http://127.0.0.1/ui/oidc/callback', 'http://localhost/ui/oidc/callback'],
  id_token_signed_response_alg: alg,
});

const page = (body) => `<!DOCTYPE html><html><body>${body}</body></html>`;

const configuration = {
  clients: [client('allot-cli', 'RS256'), client('allot-cli-es', 'ES256')],
  jwks: {
    keys: [
      signingKey('rsa', { modulusLength: 2048 }, 'test-rsa', 'RS256'),
      signingKey('ec', { namedCurve: 'P-256' }, 'test-ec', 'ES256'),
    ],
  },
  async findAccount(ctx, id) {
    const account = accounts[id];
    if (!account) return undefined;
    return {
      accountId: id,
      async claims() {
        return {
          sub: id, email: account.email, email_verified: true, name: account.name,
          preferred_username: id, groups: account.groups,
        };
      },
    };
  },
  claims: {
    openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'],
    groups: ['groups'],
  },
  // The profile claims in the ID token itself (not only at userinfo).
  conformIdTokenClaims: false,
  features: {
    devInteractions: { enabled: false },
    deviceFlow: {
      enabled: true,
      async userCodeInputSource(ctx, form) { ctx.body = page(form); },
      async userCodeConfirmSource(ctx, form) { ctx.body = page(form); },
      async successSource(ctx) { ctx.body = page('<p id="success">Signed in</p>'); },
    },
  },
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
  cookies: { keys: ['allot-test-oidc-provider-cookie-key'] },
  ttl: { DeviceCode: 600, IdToken: 3600, AccessToken: 3600 },
};

async function readForm(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
}

// Our interaction pages: login with a static account's password, then consent.
function interactions(provider) {
  return async (ctx, next) => {
    const match = ctx.path.match(/^\/interaction\/([^/]+)(\/login|\/confirm)?$/);
    if (!match) return next();
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    if (ctx.method === 'GET' && !match[2]) {
      // The prompt's name (TestBrowser reads it) and a form a real browser can
      // submit (the dashboard's Chromium test).
      const action = `/interaction/${match[1]}`;
      const form = details.prompt.name === 'login'
        ? `<form method="post" action="${action}/login"><label>Login <input name="login"></label>`
          + '<label>Password <input name="password" type="password"></label>'
          + '<button type="submit">Sign in</button></form>'
        : `<form method="post" action="${action}/confirm"><button type="submit">Allow</button></form>`;
      ctx.type = 'html';
      ctx.body = page(`<p id="prompt">${details.prompt.name}</p>${form}`);
      return undefined;
    }
    if (ctx.method !== 'POST') return next();
    if (match[2] === '/login') {
      const form = await readForm(ctx.req);
      const account = accounts[form.get('login')];
      if (!account || account.password !== form.get('password')) {
        ctx.status = 401;
        ctx.body = page('<p id="error">wrong login or password</p>');
        return undefined;
      }
      return provider.interactionFinished(ctx.req, ctx.res, { login: { accountId: form.get('login') } },
        { mergeWithLastSubmission: false });
    }
    const { prompt: { details: missing }, params, session } = details;
    const grant = details.grantId ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    return provider.interactionFinished(ctx.req, ctx.res, { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true });
  };
}

// A provider over the current keys; its state (the memory adapter) is the
// module's, so device codes and sessions outlive a rotation.
function startProvider(issuer) {
  const provider = new Provider(issuer, configuration);
  provider.use(interactions(provider));
  return provider.callback();
}

let rotations = 0;
const server = createServer();
server.listen(0, '127.0.0.1', () => {
  const issuer = `http://127.0.0.1:${server.address().port}`;
  let handler = startProvider(issuer);
  server.on('request', (req, res) => {
    if (req.method === 'POST' && req.url === '/test/rotate-keys') {
      rotations += 1;
      const kid = `rsa-${rotations}`;
      configuration.jwks.keys.unshift(signingKey('rsa', { modulusLength: 2048 }, kid, 'RS256'));
      handler = startProvider(issuer);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kid }));
      return;
    }
    handler(req, res);
  });
  writeFileSync(`${dir}/issuer.tmp`, `${issuer}\n`);
  renameSync(`${dir}/issuer.tmp`, `${dir}/issuer`);
  console.log(`oidc-provider listening: ${issuer}`);
});
