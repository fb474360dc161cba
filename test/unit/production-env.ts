/** The least a production configuration needs (a database and both secrets), for the settings' tests. */
export const PRODUCTION_ENV = {
  DATABASE_URL: 'postgresql://u@primary:5432/mboa',
  MBOA_CURSOR_SECRET: 'c'.repeat(32),
  MBOA_DASHBOARD_SECRET: 'd'.repeat(32),
};
