// The one place that tells the packaged native app from the browser. Everything native sits
// behind it, and the plugin modules are imported lazily on the native paths only, so the web
// build never loads them.
import { Capacitor } from '@capacitor/core';

export type PushPlatform = 'android' | 'ios' | 'web';

export function isNative(): boolean {
  return Capacitor.isNativePlatform();
}

/** The platform a push token belongs to. */
export function pushPlatform(): PushPlatform {
  const platform = Capacitor.getPlatform();
  return platform === 'android' || platform === 'ios' ? platform : 'web';
}
