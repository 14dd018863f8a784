package io.perflab.system;

/** The data directory ({@code perflab.data-dir}) cannot be used: its message says why, in the user's terms. */
final class DataDirectoryException extends RuntimeException {

    DataDirectoryException(String message) {
        super(message);
    }
}
