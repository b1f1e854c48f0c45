package dev.weir.admin;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SubmissionRequestTest {

    @Test
    void aJsonPostWithoutAcceptIsTaken() {
        assertTrue(SubmissionRequest.takes("POST", "application/json", null));
        assertTrue(SubmissionRequest.takes("POST", "application/json", " "));
    }

    @Test
    void theContentTypeMayCarryParametersAndAnyCase() {
        assertTrue(SubmissionRequest.takes("POST", "application/json; charset=UTF-8", null));
        assertTrue(SubmissionRequest.takes("POST", " Application/JSON ;charset=utf-8", null));
    }

    @Test
    void otherMethodsAndBodiesAreLeftToJaxRs() {
        assertFalse(SubmissionRequest.takes("GET", "application/json", null));
        assertFalse(SubmissionRequest.takes("post", "application/json", null));
        assertFalse(SubmissionRequest.takes("POST", null, null));
        assertFalse(SubmissionRequest.takes("POST", "text/plain", null));
        assertFalse(SubmissionRequest.takes("POST", "application/json-patch+json", null));
        assertFalse(SubmissionRequest.takes("POST", "application/xml", null));
    }

    @Test
    void anAcceptThatTakesJsonIsTaken() {
        assertTrue(SubmissionRequest.takes("POST", "application/json", "application/json"));
        assertTrue(SubmissionRequest.takes("POST", "application/json", "*/*"));
        assertTrue(SubmissionRequest.takes("POST", "application/json", "application/*;q=0.5"));
        assertTrue(SubmissionRequest.takes("POST", "application/json", "text/html, application/json;q=0.9"));
        assertTrue(SubmissionRequest.takes("POST", "application/json", "text/html,,*/*; q=0.1"));
    }

    @Test
    void anAcceptWithoutJsonOrWithAZeroWeightIsLeftToJaxRs() {
        assertFalse(SubmissionRequest.takes("POST", "application/json", "text/csv"));
        assertFalse(SubmissionRequest.takes("POST", "application/json", "text/*"));
        assertFalse(SubmissionRequest.takes("POST", "application/json", "application/json;q=0"));
        assertFalse(SubmissionRequest.takes("POST", "application/json", "*/*, application/json; Q=0.0"));
        assertFalse(SubmissionRequest.takes("POST", "application/json", "application/json;q=x"));
    }
}
