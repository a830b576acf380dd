/** Envelope encryption for tenant secrets (KMS on AWS, AES-256-GCM with a local key file locally). */
export interface Secrets {
  encrypt(plaintext: string, context: Record<string, string>): Promise<string>;
  decrypt(ciphertext: string, context: Record<string, string>): Promise<string>;
}
