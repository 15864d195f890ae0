#!/usr/bin/env node
// The `flagstaff` bin. It lives outside dist/ so that `npm install` links it on a fresh clone, before
// the first build has written dist/cli.js.
try {
  await import('../dist/cli.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/cli.js')) {
    process.stderr.write('flagstaff: @flagstaff/server is not built yet: run `npm run build` first\n');
    process.exit(1);
  }
  throw error;
}
