import type { CapacitorConfig } from '@capacitor/cli';

// The native shell wraps the same React build (dist/). The app talks to one Parley server, chosen
// when the native projects are synced: `PARLEY_SERVER_URL=https://inbox.example.com npx cap sync`.
// With it set, the web view loads the app from that server (same origin for the API, the
// streams, the media links and the social-login return); without it the bundled build is used
// and calls go to the origin the web view serves (the development default).
const serverUrl = process.env.PARLEY_SERVER_URL;

const config: CapacitorConfig = {
  appId: 'app.parley.inbox',
  appName: 'Parley',
  webDir: 'dist',
  server: serverUrl ? { url: serverUrl, cleartext: serverUrl.startsWith('http://') } : { androidScheme: 'https' },
  plugins: {
    PushNotifications: { presentationOptions: ['badge', 'sound', 'alert'] },
    SocialLogin: { providers: { google: true, apple: false, facebook: false, twitter: false } },
  },
};

export default config;
