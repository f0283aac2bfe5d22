/** A key pair made for the tests only (a Multikey secretKeyMultibase and its public key); it signs nothing real. */
export const TEST_SIGNING_KEY =
  'zrv2FZfgfjss2tgpGfp9tEM9DWghfqHNuyRFbbEAkvEhWMDMjxVMSrFpa3uuSY4L8AGnMdegJG5a5ToqBsWuW8PdCEg';
export const TEST_PUBLIC_KEY = 'z6MktNjx86T5bhnJLrc8Ti3h9ZCtvpJzGvMFRZuE6Mx5YqVv';
