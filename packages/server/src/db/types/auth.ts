/** Password recovery: the auth module owns it. */
export interface AuthSchema {
  recovery: RecoveryTable;
}

export interface RecoveryTable {
  id: string;
  account_id: number;
  verified_channel: string | null;
  create_time: number;
  expires_at: number;
}
